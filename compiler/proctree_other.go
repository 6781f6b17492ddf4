//go:build !unix && !js && !wasip1

package compiler

import (
	"os/exec"
	"time"
)

// killTreeOnCancel bounds Wait after cmd's context ended; off unix the
// go command alone is killed (exec.CommandContext's default).
func killTreeOnCancel(cmd *exec.Cmd) {
	cmd.WaitDelay = time.Second
}
