import HealthModel
import HealthSandboxKit
import Testing

/// `TerminalRelayText`, the relay's rendering of an app's bytes, over generated inputs: every
/// character of `TerminalControlCharacters` but newline and tab is escaped wherever it falls,
/// a chunk boundary anywhere (inside a UTF-8 sequence included) changes nothing, and at every
/// width each row starts with the mark and fits the terminal. The real relay, on a real
/// pseudo-terminal inside the real sandbox, is `TerminalRelayTests`.
@Suite(.timeLimit(.minutes(10))) struct TerminalRelayTextTests {
    static let mark = "[app org.test.text] "

    static func rendered(_ chunks: [[UInt8]], columns: Int = 80) -> String {
        var text = TerminalRelayText(appID: "org.test.text")
        var output: [UInt8] = []
        for chunk in chunks { output += text.render(chunk, terminalColumns: columns) }
        output += text.finish(terminalColumns: columns)
        return String(decoding: output, as: UTF8.self)
    }

    /// Swift's escape for each character of the set, as healthctl's `TerminalText` shows it.
    static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { TerminalControlCharacters.contains($0) ? $0.escaped(asASCII: true) : String($0) }.joined()
    }

    /// Every C0, DEL and C1 character and every bidi/separator one: escaped, alone and inside text.
    @Test func everyControlCharacterIsEscapedWhereverItFalls() {
        let escapedSet = (0 ... 0x10FFFF).lazy.compactMap(Unicode.Scalar.init).filter(TerminalControlCharacters.contains)
        var count = 0
        for scalar in escapedSet where scalar != "\n" && scalar != "\t" {
            count += 1
            for text in [String(scalar), "a\(scalar)b", "\(scalar)\(scalar)"] {
                let shown = Self.rendered([Array(text.utf8)])
                #expect(!shown.unicodeScalars.dropLast().contains(where: TerminalControlCharacters.contains),
                        "U+\(String(scalar.value, radix: 16)) reached the terminal: \(shown.debugDescription)")
                #expect(shown == Self.mark + Self.escaped(text) + "\n", "\(shown.debugDescription)")
            }
        }
        #expect(count == 32 + 1 + 32 + 12 + 2 - 2)
    }

    /// Split anywhere — between the bytes of a multi-byte character too — the output is the same.
    @Test func aChunkBoundaryAnywhereChangesNothing() {
        let bytes = Array("héllo 健康 🫀\u{1B}[31m\n\u{202E}x\t\u{2028}".utf8) + [0xFF, 0xE2, 0x82] + Array("end".utf8)
        let whole = Self.rendered([bytes])
        for split in 0 ... bytes.count {
            #expect(Self.rendered([Array(bytes[..<split]), Array(bytes[split...])]) == whole, "split at \(split)")
        }
        #expect(Self.rendered(bytes.map { [$0] }) == whole, "one byte at a time")
    }

    /// Invalid UTF-8 (stray continuation, overlong, surrogate, above U+10FFFF, cut short) shows as
    /// `\xNN`, one per byte that starts no character; the valid text around it is kept.
    @Test func invalidUTF8IsShownByteByByte() {
        let cases: [([UInt8], String)] = [
            ([0x80], #"\x80"#), ([0xC0, 0xAF], #"\xC0\xAF"#), ([0xED, 0xA0, 0x80], #"\xED\xA0\x80"#),
            ([0xF4, 0x90, 0x80, 0x80], #"\xF4\x90\x80\x80"#), ([0xF5], #"\xF5"#), ([0xE2, 0x82], #"\xE2\x82"#),
            ([0x61, 0xFF, 0x62], #"a\xFFb"#), ([0xE2, 0x82, 0x41], #"\xE2\x82A"#),
        ]
        for (bytes, shown) in cases {
            #expect(Self.rendered([bytes]) == Self.mark + shown + "\n", "\(bytes)")
        }
    }

    /// Every row starts with the mark and fits the terminal, at every width from the mark's own
    /// up, for ASCII, wide characters, tabs and escapes; no text is lost.
    @Test func everyRowIsMarkedAndFitsAtEveryWidth() {
        let lines = [String(repeating: "a", count: 300), String(repeating: "健", count: 100), String(repeating: "\tx", count: 50),
                     String(repeating: "\u{1B}[2J", count: 40), "short", ""]
        let input = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        for columns in Self.mark.count + 8 ... 200 {
            let shown = Self.rendered([input], columns: columns)
            for row in shown.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                #expect(row.hasPrefix(Self.mark), "\(columns): \(row)")
                var width = 0
                for scalar in row.unicodeScalars { width = scalar == "\t" ? (width / 8 + 1) * 8 : width + (scalar.isASCII ? 1 : 2) }
                #expect(width <= columns, "\(columns) columns: \(width) wide: \(row)")
            }
        }
    }

    /// An unfinished last line is ended by the relay; a finished one is left as it is; nothing
    /// printed, nothing written.
    @Test func theRelayEndsAnUnfinishedLine() {
        #expect(Self.rendered([Array("Password: ".utf8)]) == Self.mark + "Password: \n")
        #expect(Self.rendered([Array("done\n".utf8)]) == Self.mark + "done\n")
        #expect(Self.rendered([[]]) == "")
        #expect(Self.rendered([Array("\n\n".utf8)]) == Self.mark + "\n" + Self.mark + "\n")
    }

    /// The app id in the mark is escaped like the app's text: a control character in it shows.
    @Test func theMarkShowsAnIdEscaped() {
        var text = TerminalRelayText(appID: "org.\u{1B}[2Jx")
        #expect(String(decoding: text.mark, as: UTF8.self) == #"[app org.\u{1B}[2Jx] "#)
        #expect(text.finish(terminalColumns: 80).isEmpty)
    }
}
