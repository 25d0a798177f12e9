import HealthModel
import Logging

/// The one place healthd's log lines are made safe, in front of whichever handler writes them
/// (standard error, or the journal): every message, metadata key and value, error description
/// and label reaches that handler with its control characters, bidirectional formatting
/// characters and line/paragraph separators written as escapes (`\n`, `\u{1B}`,
/// `TerminalControlCharacters.escaped`, the project's one escaping).
///
/// Log messages carry outside text — a refused process's executable path, an app's request
/// that failed to decode, a file name — and a newline in such text started a line of its own:
/// a process run from `/tmp/x\n99  … manager read Heart Rate` forged a line in healthd's log,
/// under systemd a journal entry with a priority of its choosing (redteam23 F3). Escaping here,
/// and not message by message, covers every message written now or later.
struct EscapingLogHandler: LogHandler {
    /// The handler that formats and writes; it is given only escaped text and keeps no metadata
    /// of its own (this handler holds it, so none bypasses the escaping).
    private var inner: any LogHandler
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(wrapping inner: any LogHandler) {
        self.inner = inner
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        // An error's description is outside text too: it goes as metadata, escaped.
        if let error = event.error { merged["error"] = .string("\(error)") }
        var escapedMetadata: Logger.Metadata = [:]
        for (key, value) in merged { escapedMetadata[Self.escaped(key)] = Self.escaped(value) }
        inner.log(event: LogEvent(level: event.level, message: Logger.Message(stringLiteral: Self.escaped(event.message.description)),
                                  metadata: escapedMetadata.isEmpty ? nil : escapedMetadata, source: event.source,
                                  file: event.file, function: event.function, line: event.line))
    }

    static func escaped(_ text: String) -> String {
        TerminalControlCharacters.escaped(text)
    }

    /// Every string in the value escaped; a `stringConvertible` is made text first, so no value
    /// reaches the writer unescaped whatever its type prints.
    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case let .string(text): .string(escaped(text))
        case let .stringConvertible(convertible): .string(escaped(convertible.description))
        case let .array(values): .array(values.map(escaped))
        case let .dictionary(entries): .dictionary(Dictionary(entries.map { (escaped($0.key), escaped($0.value)) }) { first, _ in first })
        }
    }
}
