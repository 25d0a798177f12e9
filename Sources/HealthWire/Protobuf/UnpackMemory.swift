/// Who pays for the memory an unpack takes: the call whose request is being decoded.
///
/// Why: the buffer bound (`BufferBudget`) claims a request when its length prefix arrives, at a
/// fixed multiple of its frame, but what a frame unpacks to depends on its shape — up to
/// `WireLimits.maxUnpackedBytesPerInputByte` per byte — and the Swift values built from it come
/// on top. Charged only the fixed multiple, one app's share admitted requests that took several
/// times the share in healthd's memory (SECURITY.md, "Memory"). So the arena that every unpack
/// allocates from (`UnpackArena`) claims what it really hands out, as it hands it out, from the
/// account bound here, and fails the unpack when the account refuses.
public protocol UnpackMemoryAccount: Sendable {
    /// Claims `bytes` more of unpacked memory for the call, held until the call ends. Never
    /// waits (unpacking runs on shared threads): false — having claimed nothing — when they do
    /// not fit.
    func claimUnpacked(_ bytes: Int) -> Bool
    /// The limit a refused claim passed, as the app is told it (what to change included).
    var unpackedLimitDescription: String { get }
}

public enum UnpackMemory {
    /// The account of the call this task (or thread) works for: bound by the server around every
    /// call's handler, and carried onto the store's own threads (`BlockingWork`). nil — nobody
    /// is charged — for what no peer's share pays for: the manager's calls, replies the SDK
    /// decodes, tests.
    @TaskLocal public static var account: (any UnpackMemoryAccount)?
}
