//go:build unix

package compiler

import (
	"os/exec"
	"syscall"
	"time"
)

// killTreeOnCancel makes cmd (made with exec.CommandContext) start in a
// process group of its own and, when its context ends, kills the whole
// group: the go command's compilers and linkers as well as the go command.
// Wait returns at most childWaitDelay after that even if a stray process
// still holds cmd's output pipes.
func killTreeOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = childWaitDelay
}

// childWaitDelay bounds Wait after a child's context ended (see
// exec.Cmd.WaitDelay).
const childWaitDelay = time.Second
