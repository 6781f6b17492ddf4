// The About dialog: the product, its version (the page's and the core's),
// its license and the third-party notices (LICENSE.txt and
// THIRD_PARTY_NOTICES.txt, written beside the page by site/build). A
// native <dialog>: modal, focus kept inside, Escape closes it.
import "./about.css";

let coreVersion = "";
let dialog: HTMLDialogElement | undefined;

// setCoreVersion records the version string the core reports when it is
// ready (wasm/api.go version(): the Go version and, when recorded, the
// VCS revision).
export function setCoreVersion(v: string) {
  coreVersion = v;
  if (dialog) fill(dialog);
}

// initAbout makes button open the dialog.
export function initAbout(button: HTMLElement) {
  button.setAttribute("aria-haspopup", "dialog");
  button.addEventListener("click", () => {
    dialog ??= build();
    fill(dialog);
    dialog.showModal();
  });
}

function build(): HTMLDialogElement {
  const d = document.createElement("dialog");
  d.className = "about";
  d.dataset.testid = "about-dialog";
  d.setAttribute("aria-labelledby", "about-title");
  d.innerHTML = `
<h2 id="about-title">proto<b>play</b></h2>
<p>Protocol Buffers to lean Go, and messages encoded and decoded, in your browser.</p>
<dl>
  <dt>Version</dt><dd data-testid="about-version"></dd>
  <dt>Core</dt><dd data-testid="about-core"></dd>
  <dt>License</dt><dd data-testid="about-license"><a href="./LICENSE.txt" target="_blank" rel="noopener">Apache License 2.0</a></dd>
</dl>
<p>protoplay contains the Go runtime and standard library, protocompile, jennifer,
Go Protocol Buffers, CodeMirror and other software under their own licenses:
<a href="./THIRD_PARTY_NOTICES.txt" target="_blank" rel="noopener" data-testid="about-notices">third-party notices</a>.</p>
<form method="dialog"><button data-testid="about-close" autofocus>Close</button></form>`;
  // A click on the backdrop (outside the box) closes it too.
  d.addEventListener("click", (e) => {
    if (e.target === d) {
      const r = d.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) d.close();
    }
  });
  document.body.append(d);
  return d;
}

function fill(d: HTMLDialogElement) {
  d.querySelector('[data-testid="about-version"]')!.textContent = __PROTOPLAY_VERSION__;
  d.querySelector('[data-testid="about-core"]')!.textContent = coreVersion
    ? `built with ${coreVersion}`
    : "loading…";
}
