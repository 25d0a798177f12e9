import HealthModel

/// The one place healthctl renders an error or a warning for the user. Error texts quote what
/// apps and files chose — healthd's refusals name app ids, metadata keys and source names; an
/// export's, a manifest's or a card's reader quotes paths and attributes — so each line is one
/// line: every character of `TerminalControlCharacters` in it, the newline and carriage return
/// included, is shown as its escape (`\n`, `\u{1B}`). A second line that looks like healthctl's
/// own output can then only be one healthctl composed: the problems under a manifest's headline,
/// ArgumentParser's usage under a usage error.
///
/// `TerminalSafeSink` stays the door every character passes; it lets newlines through because the
/// commands' own layout needs them, which is why an error's text must be made one line here.
enum ErrorLines {
    static let prefix = "healthctl: "

    /// `healthctl: MESSAGE` as one line.
    static func line(_ message: String) -> String {
        prefix + TerminalControlCharacters.escaped(message)
    }

    /// `healthctl: warning: MESSAGE` as one line.
    static func warning(_ message: String) -> String {
        line("warning: " + message)
    }

    /// A healthctl failure: its headline, then the lines healthctl lists under it (a manifest's
    /// problems), each one line of its own.
    static func lines(_ error: HealthCtlError) -> [String] {
        [line(error.headline)] + error.details.map { "  - " + TerminalControlCharacters.escaped($0) }
    }

    /// ArgumentParser's text for a usage error or a failure it describes (`fullMessage`): its
    /// first line holds the error's message (`message`), which quotes the arguments or the
    /// error a command threw (an export reader's, say), and is made one line; what follows is
    /// ArgumentParser's usage, composed from healthctl's own definitions, and stays as it is.
    static func argumentParserText(message: String, full: String) -> String {
        guard !message.isEmpty, let range = full.range(of: message) else { return full }
        return full[..<range.lowerBound] + TerminalControlCharacters.escaped(message) + full[range.upperBound...]
    }

    static func write(_ error: HealthCtlError, to sink: any TextSink) {
        for line in lines(error) { sink.writeLine(line) }
    }
}
