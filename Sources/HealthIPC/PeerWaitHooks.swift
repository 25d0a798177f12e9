/// What a call gives back while it waits for its own peer to read its replies, and takes again
/// before it goes on (the broker's large-query slot, `QueryScheduler`). A call that waits for
/// its own client must hold nothing that other clients' calls need: a client that stops reading
/// then stalls only itself.
///
/// `CallResponder` calls `park` right before it waits for the peer and `unpark` right after,
/// once per wait: from the thread that streams (a thread of its own, which may block) for
/// `sendFromSynchronousContext`, from the call's task (`unparkSuspending`) for `send`.
public protocol PeerWaitHooks: Sendable {
    /// Gives the shared resources back. `interrupt` ends the wait early: the broker calls it when
    /// too many calls wait for their peers at once and this one has waited longest.
    func park(interrupt: @escaping @Sendable () -> Void)

    /// Ends the park. With `goingOn` (the peer read, the call produces more), blocks until the
    /// call holds its resources again, in turn with everyone else; without it (the call ends),
    /// only deregisters. Throws the status the call ends with when it was evicted meanwhile.
    func unpark(goingOn: Bool) throws

    /// `unpark` for a call that streams with `send` (it suspends instead of blocking).
    func unparkSuspending(goingOn: Bool) async throws

    /// After the call handed a message and before it produces the next: when another peer's call
    /// waits for what this one holds (the broker's turn rule, `QueryScheduler.takeTurn`), gives
    /// it back and blocks until the call holds it again, in turn; otherwise returns at once.
    /// Throws the status the call ends with when it may not go on.
    func takeTurn() throws

    /// `takeTurn` for a call that streams with `send` (it suspends instead of blocking).
    func takeTurnSuspending() async throws

    /// Whether `takeTurn` would give the call's resources away now: a hint, for a call that
    /// reads its next message only if it would keep them (`CallResponder.isReady`).
    var turnDue: Bool { get }
}
