/// Characters that steer a terminal or reorder what it shows, rather than being shown: the
/// control characters (C0, DEL, C1 — ESC and CSI start sequences that retitle, recolour, move the
/// cursor, hide or rewrite text; a newline or carriage return starts a forged line) and the
/// bidirectional formatting characters with the line and paragraph separators (U+202E reverses
/// what follows: "Trojan Source", CVE-2021-42574). Right-to-left scripts, emoji and combining
/// marks are not among them.
///
/// Text an app chooses for the user to read in a consent prompt — its manifest's display name,
/// version and usage descriptions — may hold none of them (`AppManifest.problems`): such a text
/// is never a terminal sequence. healthctl's `TerminalText` escapes the same class in what it
/// shows from the store.
public enum TerminalControlCharacters {
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: true  // C0, DEL, C1
        case 0x061C, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069: true  // bidi marks, embeddings, overrides, isolates
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }

    /// `text` with each such character written as its escape (`\u{1B}`), the one escaping of
    /// the project: healthctl shows stored text through it (`TerminalText.shown`), and healthd
    /// lists a verifiable record stored before its card's text was checked through it.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: contains) else { return text }
        return text.unicodeScalars.map { contains($0) ? $0.escaped(asASCII: true) : String($0) }.joined()
    }

    /// The first such character in `text` and its position (counted in Unicode scalars from 1), nil for none.
    public static func first(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() where contains(scalar) {
            return (scalar, offset + 1)
        }
        return nil
    }
}
