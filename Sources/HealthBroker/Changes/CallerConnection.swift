import Synchronization

/// Which connection a call arrived on, for state that belongs to one connection rather than to
/// the app: an observer query's acknowledgements must come over the connection that runs it
/// (a second connection of the same app, or another app, naming its id is refused exactly like
/// an unknown id). `ConnectionRegistry` binds each connection's calls to a fresh number; the
/// number is never sent to anyone, so it cannot be named from outside.
enum CallerConnection {
    /// The current call's connection; nil outside a call (then nothing connection-bound matches).
    @TaskLocal static var current: UInt64?

    private static let counter = Atomic<UInt64>(0)

    /// A number no earlier connection of this healthd had.
    static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}
