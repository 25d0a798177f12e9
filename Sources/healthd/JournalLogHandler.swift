import Glibc
import Logging

/// healthd's log lines when systemd connected its standard error to the journal
/// (`JOURNAL_STREAM`): each line starts with its syslog priority, `<N>`, which journald strips
/// and keeps as the entry's level — so `journalctl -p warning` finds healthd's warnings. No
/// timestamp: the journal stamps every entry itself.
///
/// What is logged is decided by the callers, which never pass health values; this handler
/// only formats. It is installed behind `EscapingLogHandler`, which escapes line breaks and every
/// other control character in messages and metadata, so no text can start a journal entry of its
/// own with a priority of its choosing; a line break still left is written as a space.
struct JournalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Whether standard error is the journal stream systemd set up: `JOURNAL_STREAM` is
    /// "DEVICE:INODE" of it (systemd.exec(5)), which a redirected stderr no longer matches.
    static func standardErrorIsJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// syslog(3) priorities; swift-log's trace has none of its own and shares debug's.
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var text = "<\(priority(of: level))>\(label): \(message)"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            text += " \(key)=\(value)"
        }
        return String(text.map { $0.isNewline ? " " : $0 }) + "\n"
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let bytes = Array(Self.line(level: event.level, label: label, message: event.message.description, metadata: merged).utf8)
        // One write per line, so lines of concurrent threads never interleave.
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(STDERR_FILENO, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
