import Synchronization

/// Which app connections are open, and which of them began an attachment upload. An upload
/// belongs to the connection that began it (`AttachmentRepository.UploadConnection`) and is
/// dropped when that connection ends; this says whether there is anything to drop, so a
/// connection that never uploaded costs no store write when it ends.
///
/// No order of a begin and a connection's end leaves an upload behind: the begin asks `stage(on:)`
/// inside the transaction that stages it, and the end forgets the connection (`ended`) before the
/// transaction that drops its uploads starts. Transactions run one at a time, so a begin either
/// commits before that drop (which removes it) or sees the connection gone and stages nothing.
final class ConnectionUploads: Sendable {
    /// Open app connections → whether each began an upload. Bounded by the connection limit.
    private let open = Mutex<[UInt64: Bool]>([:])

    func opened(_ connection: UInt64) {
        open.withLock { $0[connection] = false }
    }

    /// Marks `connection` as having begun an upload; false once it has ended.
    func stage(on connection: UInt64) -> Bool {
        open.withLock { open in
            guard open[connection] != nil else { return false }
            open[connection] = true
            return true
        }
    }

    /// Forgets `connection`; true if it began any upload, whose rows must then be dropped.
    func ended(_ connection: UInt64) -> Bool {
        open.withLock { $0.removeValue(forKey: connection) ?? false }
    }
}
