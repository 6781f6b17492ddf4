// Latest keeps "the latest request wins": answers arrive out of order
// (a Worker restart, a slow compile overtaken by an edit), and only the
// answer to the newest request may reach the screen.
//
//   const fresh = latest.next();   // a new request; earlier ones go stale
//   const r = await core.call(...);
//   if (!fresh()) return;          // something newer began meanwhile
export class Latest {
  private generation = 0;

  // next begins a request that supersedes every earlier one and returns
  // a check that stays true until a newer one begins or supersede is
  // called.
  next(): () => boolean {
    this.generation++;
    return this.current();
  }

  // current returns the check of the newest request so far, without
  // beginning another: for work that follows it (a recompile loop, a
  // follow-up call after a pause).
  current(): () => boolean {
    const g = this.generation;
    return () => g === this.generation;
  }

  // supersede makes every request so far stale (the input they were for
  // is being edited).
  supersede() {
    this.generation++;
  }
}
