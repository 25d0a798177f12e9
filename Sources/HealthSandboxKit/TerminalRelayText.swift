import HealthModel

/// What health-sandbox's terminal relay (`TerminalRelay`) writes to the user's terminal for the
/// bytes an app printed, one output channel at a time. The app's bytes never steer the
/// terminal and every row they appear on starts with the app's mark:
///
/// - Escaped, as healthctl escapes text from the store (`TerminalText`, Swift's `\u{1B}` form):
///   every character of `TerminalControlCharacters` — C0 (NUL, BEL, BS, CR, ESC…), DEL, C1 (CSI,
///   OSC…), the bidi formatting characters, the line and paragraph separators — except the
///   newline and the tab. A newline ends the app's line; a tab only moves right, to a tab stop
///   the app cannot set (setting one takes an escape sequence). Bytes that are not UTF-8 are
///   shown as `\xFF`.
/// - Marked: each line starts with `[app APP-ID] `, the id escaped the same way. The app cannot
///   move the cursor back over the mark (no CR, no backspace, no sequence) nor start a row
///   without it: a line longer than the terminal is broken by the relay, a row before the
///   terminal would wrap it, and the next row gets the mark too. Widths are over-estimated
///   (every non-ASCII character counts two columns), so the relay breaks early, never late.
///   The mark names the app and starts with a bracket no tool's prompt uses with "app " (sudo's
///   is `[sudo] `, shells print `$ `, `# ` or `user@host`, health-sandbox `health-sandbox: `,
///   healthctl its own words).
/// - Ended: when the app ends mid-line the relay ends the line, so whatever the shell or
///   health-sandbox prints next starts a row of its own.
///
/// Bounded: a call returns at most a fixed multiple of its input (an escape is at most 10
/// bytes, a mark is added at most once per output column), and only an incomplete UTF-8
/// sequence — at most 3 bytes — is held until the next call.
public struct TerminalRelayText: Sendable {
    /// `[app ID] `, as written.
    public let mark: [UInt8]
    let markColumns: Int
    /// Columns used on the terminal's current row; 0: no row started (the next byte gets the mark).
    private var column = 0
    /// The start of a UTF-8 sequence that the last call ended in the middle of.
    private var pending: [UInt8] = []

    public init(appID: String) {
        let shown = "[app " + TerminalEscape.shown(String(appID.unicodeScalars.prefix(128))) + "] "
        mark = Array(shown.utf8)
        markColumns = shown.unicodeScalars.reduce(0) { $0 + Self.columns(of: $1) }
    }

    /// The bytes to write for `bytes`, the next bytes the app printed, on a terminal
    /// `terminalColumns` wide (0: unknown, taken as 80).
    public mutating func render(_ bytes: some Collection<UInt8>, terminalColumns: Int) -> [UInt8] {
        let width = terminalColumns > 0 ? terminalColumns : 80
        let input = pending + bytes
        pending = []
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 2 + mark.count)
        var index = 0
        while index < input.count {
            switch UTF8Step.decode(input, at: index) {
            case let .scalar(scalar, length):
                emit(scalar, into: &output, width: width)
                index += length
            case .incomplete:
                pending = Array(input[index...])
                index = input.count
            case .invalid:
                let hex = String(input[index], radix: 16, uppercase: true)
                place(Array(("\\x" + (hex.count == 1 ? "0" : "") + hex).utf8), columns: 4, into: &output, width: width)
                index += 1
            }
        }
        return output
    }

    /// The bytes to write when the app's output ends: a held incomplete sequence, shown as
    /// invalid bytes, and a newline if the app left its last row unfinished.
    public mutating func finish(terminalColumns: Int) -> [UInt8] {
        let held = pending
        pending = []
        var output: [UInt8] = []
        for byte in held {
            let hex = String(byte, radix: 16, uppercase: true)
            place(Array(("\\x" + (hex.count == 1 ? "0" : "") + hex).utf8), columns: 4, into: &output,
                  width: terminalColumns > 0 ? terminalColumns : 80)
        }
        if column > 0 {
            output.append(0x0A)
            column = 0
        }
        return output
    }

    private mutating func emit(_ scalar: Unicode.Scalar, into output: inout [UInt8], width: Int) {
        if scalar.value >= 0x20 && scalar.value < 0x7F {  // printable ASCII, most of any output: no allocation
            startRowIfNeeded(into: &output)
            if column + 1 > width && column > markColumns {
                output.append(0x0A)
                column = 0
                startRowIfNeeded(into: &output)
            }
            output.append(UInt8(scalar.value))
            column += 1
            return
        }
        switch scalar {
        case "\n":
            startRowIfNeeded(into: &output)
            output.append(0x0A)
            column = 0
        case "\t":
            // Its width depends on where it starts: counted again on a new row.
            startRowIfNeeded(into: &output)
            if column + 8 - column % 8 > width && column > markColumns {
                output.append(0x0A)
                column = 0
                startRowIfNeeded(into: &output)
            }
            output.append(0x09)
            column += 8 - column % 8
        case _ where TerminalControlCharacters.contains(scalar):
            let escaped = scalar.escaped(asASCII: true)
            place(Array(escaped.utf8), columns: escaped.utf8.count, into: &output, width: width)
        default:
            place(Array(String(scalar).utf8), columns: Self.columns(of: scalar), into: &output, width: width)
        }
    }

    /// Writes `bytes`, `columns` wide, on the current row, or on a new marked row when they
    /// would reach past the terminal's edge (and something of the app's is on this row already).
    private mutating func place(_ bytes: [UInt8], columns: Int, into output: inout [UInt8], width: Int) {
        startRowIfNeeded(into: &output)
        if column + columns > width && column > markColumns {
            output.append(0x0A)
            column = 0
            startRowIfNeeded(into: &output)
        }
        output += bytes
        column += columns
    }

    private mutating func startRowIfNeeded(into output: inout [UInt8]) {
        guard column == 0 else { return }
        output += mark
        column = markColumns
    }

    /// At least the columns a terminal gives `scalar`: one for printable ASCII, two for
    /// anything else (East Asian wide characters and emoji take two; the rest fewer).
    static func columns(of scalar: Unicode.Scalar) -> Int {
        scalar.value >= 0x20 && scalar.value < 0x7F ? 1 : 2
    }
}

/// One step of UTF-8 decoding over bytes that may end mid-sequence (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF).
enum UTF8Step: Equatable {
    case scalar(Unicode.Scalar, length: Int)
    /// A valid start of a sequence that the bytes end before completing.
    case incomplete
    /// The byte at the index starts no valid sequence.
    case invalid

    static func decode(_ bytes: [UInt8], at index: Int) -> UTF8Step {
        let lead = bytes[index]
        if lead < 0x80 { return .scalar(Unicode.Scalar(lead), length: 1) }
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2 ... 0xDF: (length, second) = (2, 0x80 ... 0xBF)
        case 0xE0: (length, second) = (3, 0xA0 ... 0xBF)
        case 0xED: (length, second) = (3, 0x80 ... 0x9F)
        case 0xE1 ... 0xEF: (length, second) = (3, 0x80 ... 0xBF)
        case 0xF0: (length, second) = (4, 0x90 ... 0xBF)
        case 0xF4: (length, second) = (4, 0x80 ... 0x8F)
        case 0xF1 ... 0xF3: (length, second) = (4, 0x80 ... 0xBF)
        default: return .invalid
        }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1 ..< length {
            guard index + offset < bytes.count else { return .incomplete }
            let byte = bytes[index + offset]
            guard offset == 1 ? second.contains(byte) : (0x80 ... 0xBF).contains(byte) else { return .invalid }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return .invalid }
        return .scalar(scalar, length: length)
    }
}

/// Text health-sandbox prints that others chose (an app id, healthd's messages, which may quote
/// an installed manifest): each character of `TerminalControlCharacters` written as Swift's
/// escape (`\u{1B}`), the form healthctl's `TerminalText` uses.
enum TerminalEscape {
    static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: TerminalControlCharacters.contains) else { return text }
        return text.unicodeScalars.map { TerminalControlCharacters.contains($0) ? $0.escaped(asASCII: true) : String($0) }.joined()
    }
}
