import HealthModel

/// Text from the store, shown on the user's terminal. Apps choose their source names, device
/// strings and metadata (and attachment names and types); the store keeps them exactly, and the
/// terminal must show them, never obey them. Two kinds of character are shown as escapes
/// (`\u{1B}`) instead:
///
/// - control characters (C0, DEL, C1): ESC and CSI start sequences that retitle, recolour,
///   move the cursor or rewrite earlier lines; a newline or carriage return would forge a row
///   of a table;
/// - the bidirectional formatting characters and the line/paragraph separators: U+202E
///   reverses what follows ("Trojan Source", CVE-2021-42574), so a name could show as another
///   app's, or a number as another number.
///
/// Everything else (right-to-left scripts, emoji, combining marks) is shown as stored.
enum TerminalText {
    /// `text` with every unsafe character escaped; `text` itself when it holds none.
    static func shown(_ text: String) -> String {
        TerminalControlCharacters.escaped(text)
    }

    /// One set for the whole project: the same characters a manifest may not hold
    /// (`TerminalControlCharacters`, checked by `AppManifest.problems`).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        TerminalControlCharacters.contains(scalar)
    }
}
