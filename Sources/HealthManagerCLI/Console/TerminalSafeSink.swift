/// The one door to the user's terminal: `CommandIO` wraps its output and error sinks in this,
/// so every character any command prints passes here, including commands added later and
/// fields that forgot `TerminalText`. Apps choose much of what healthctl shows (source and
/// device names, metadata, document titles, attachment names); this makes sure none of it can
/// drive the terminal.
///
/// Every character `TerminalText.isUnsafe` names — C0 and C1 controls, DEL, the bidirectional
/// formatting characters, the line and paragraph separators — is written as a `\uXXXX`
/// escape, except:
/// - newline and tab, which the commands' own layout uses (a newline inside an app's string is
///   escaped earlier, field by field, by `TerminalText`: only there is it known to be data);
/// - on a terminal with styling on, the CLI's own sequences: bold and reset (`ESC[1m`, `ESC[0m`)
///   and, on the error stream only, the carriage return and erase-line (`ESC[K`) that redraw
///   a progress line. An app's string that reached this sink unescaped could therefore at worst
///   embolden text on a terminal; it can never move the cursor, recolour, retitle or reverse
///   text. Off a terminal (pipes, files, NO_COLOR) nothing passes.
///
/// `\uXXXX` is JSON's own escape, so `--json` lines stay valid JSON with the same meaning.
struct TerminalSafeSink: TextSink {
    let base: any TextSink
    /// Exact sequences of unsafe characters written as they are.
    let allowed: [String]

    init(_ base: any TextSink, allowing allowed: [String] = []) {
        self.base = base
        self.allowed = allowed
    }

    static let bold = "\u{1B}[1m"
    static let reset = "\u{1B}[0m"
    static let eraseLine = "\u{1B}[K"

    func write(_ text: String) { base.write(Self.escaped(text, allowing: allowed)) }

    static func escaped(_ text: String, allowing allowed: [String] = []) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: isEscaped) else { return text }
        var shown = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if !isEscaped(scalar) {
                shown.append(scalar)
                index = scalars.index(after: index)
            } else if let sequence = allowed.first(where: { scalars[index...].starts(with: $0.unicodeScalars) }) {
                shown.append(contentsOf: sequence.unicodeScalars)
                index = scalars.index(index, offsetBy: sequence.unicodeScalars.count)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
                index = scalars.index(after: index)
            }
        }
        return String(shown)
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && TerminalText.isUnsafe(scalar)
    }
}
