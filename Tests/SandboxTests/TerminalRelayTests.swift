import Foundation
import Glibc
import Testing
import TestSupport

/// What a sandboxed app can do to the user's terminal, tried with `escape-probe emit` under the
/// real `health-sandbox run` against a real healthd, on a real pseudo-terminal, as root and as
/// an ordinary user. Before the relay the app wrote to the terminal itself: every escape below
/// reached it raw (the unconfined control still shows that), and each case failed (commit
/// message). Now health-sandbox relays a terminal's output: escaped, every row marked
/// `[app APP-ID] `; a pipe or file still gets the app's bytes unchanged. One healthd per user.
@Suite(.timeLimit(.minutes(10)), .serialized) struct TerminalRelayTests {
    static let appID = "org.test.terminal"
    static let mark = "[app org.test.terminal] "

    /// (what the app writes, what the terminal must show for it)
    static let hostileLines: [(bytes: [UInt8], shown: String)] = [
        (Array("\u{1B}[2J\u{1B}[Hcleared".utf8), #"\u{1B}[2J\u{1B}[Hcleared"#),  // CSI: clear, cursor home
        (Array("\u{1B}]0;pwned\u{07}retitled".utf8), #"\u{1B}]0;pwned\u{07}retitled"#),  // OSC: window title
        ([0x1B, 0x5B, 0x35, 0x6E, 0x05] + Array("answer".utf8), #"\u{1B}[5n\u{05}answer"#),  // status report, ENQ answer-back
        ([0xC2, 0x9B] + Array("31mC1".utf8), #"\u{009B}31mC1"#),  // C1 CSI, as UTF-8
        ([0xE2, 0x80, 0xAE] + Array("exe.txt".utf8), #"\u{202E}exe.txt"#),  // right-to-left override
        (Array("a".utf8) + [0xE2, 0x80, 0xA8] + Array("b".utf8), #"a\u{2028}b"#),  // line separator
        (Array("nul".utf8) + [0x00] + Array("byte".utf8), #"nul\0byte"#),
        ([0xFF, 0xC0, 0xAF, 0xED, 0xA0, 0x80] + Array("bad".utf8), #"\xFF\xC0\xAF\xED\xA0\x80bad"#),  // invalid, overlong, surrogate
        (Array("50%\rhealthctl: done\u{08}\u{7F}".utf8), #"50%\rhealthctl: done\u{08}\u{7F}"#),  // CR, BS, DEL rewrite the row
        (Array("col\tumn ok — ünïcode 健康".utf8), "col\tumn ok — ünïcode 健康"),  // tab and text pass
    ]
    /// A fake prompt, left unfinished as a real one is.
    static let fakePrompt = "[sudo] password for alice: "

    static func hex(_ bytes: [UInt8]) -> String { bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func theAppsOutputReachesATerminalEscapedAndMarked(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install(Self.appID, product: "escape-probe")
        let terminal = try Terminal(owner: try await user.ids())
        defer { terminal.close() }
        let stdout: [UInt8] = Self.hostileLines.flatMap { $0.bytes + [UInt8(0x0A)] }
        let stderr: [UInt8] = Array("health-sandbox: this line is the app's\n".utf8) + Array(Self.fakePrompt.utf8)
        let emit = [app.executable, "emit", Self.hex(stdout), Self.hex(stderr), "0"]

        // Standard output and error on the terminal: one ordered stream, every row marked.
        let (program, arguments) = try await user.command(Products.path("health-sandbox"), sandboxed(world, app) + emit)
        let relayed = try await terminal.capture(program, arguments)
        #expect(relayed.status == 0, "\(user): \(relayed.terminalText)")
        let expected = Self.hostileLines.map { Self.mark + $0.shown + "\n" }.joined()
            + Self.mark + "health-sandbox: this line is the app's\n" + Self.mark + Self.fakePrompt + "\n"
        #expect(relayed.terminalText == expected, "\(user): the terminal received \(relayed.terminal)")
        #expect(!relayed.terminal.contains(0x1B) && !relayed.terminal.contains(0x0D) && !relayed.terminal.contains(0x00),
                "\(user): a control byte reached the terminal")

        // Standard output to a pipe: the app's bytes unchanged; only the terminal (stderr) is relayed.
        let piped = try await terminal.capture(program, arguments, stdoutToPipe: true)
        #expect(piped.status == 0)
        #expect(piped.pipe == stdout, "\(user): the pipe did not get the app's bytes unchanged")
        #expect(piped.terminalText == Self.mark + "health-sandbox: this line is the app's\n" + Self.mark + Self.fakePrompt + "\n",
                "\(user): \(piped.terminalText)")

        // Control: unconfined, the same program drives the terminal with every one of them.
        let (controlProgram, controlArguments) = try await user.command(app.executable, Array(emit.dropFirst()))
        let control = try await terminal.capture(controlProgram, controlArguments)
        #expect(control.terminal.contains(0x1B) && control.terminal.contains(0x00), "\(user): control: \(control.terminal)")
    }

    /// A line longer than the terminal is broken by the relay before the terminal would wrap it,
    /// so no row starts with the app's text instead of its mark — wide characters included
    /// (counted two columns each), and whatever the width.
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func noRowOfALongLineStartsUnmarked(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install(Self.appID, product: "escape-probe")
        let terminal = try Terminal(owner: try await user.ids())
        defer { terminal.close() }
        let long = String(repeating: "a", count: 70) + String(repeating: "健", count: 30) + String(repeating: " ", count: 50)
            + Self.fakePrompt
        let emit = [app.executable, "emit", Self.hex(Array((long + "\n").utf8)), "-", "0"]
        let (program, arguments) = try await user.command(Products.path("health-sandbox"), sandboxed(world, app) + emit)
        for columns: UInt16 in [40, 80] {
            let relayed = try await terminal.capture(program, arguments, columns: columns)
            #expect(relayed.status == 0)
            let rows = relayed.terminalText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(rows.count > 1, "\(user), \(columns) columns: \(relayed.terminalText)")
            for row in rows {
                #expect(row.hasPrefix(Self.mark), "\(user), \(columns) columns: unmarked row \(row)")
                let width = row.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }
                #expect(width <= Int(columns), "\(user), \(columns) columns: the terminal wraps \(row)")
            }
            #expect(rows.map { $0.dropFirst(Self.mark.count) }.joined() == long, "\(user), \(columns) columns: text lost or changed")
        }
    }

    /// Exit codes and death by signal reach the shell as they do without the relay.
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func exitCodesAndSignalsPassThroughTheRelay(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install(Self.appID, product: "escape-probe")
        let terminal = try Terminal(owner: try await user.ids())
        defer { terminal.close() }
        for (ending, status) in [("0", Int32(0)), ("7", 7), ("signal:\(SIGTERM)", 128 + SIGTERM), ("signal:\(SIGKILL)", 128 + SIGKILL)] {
            let emit = [app.executable, "emit", Self.hex(Array("bye\n".utf8)), "-", ending]
            let (program, arguments) = try await user.command(Products.path("health-sandbox"), sandboxed(world, app) + emit)
            let relayed = try await terminal.capture(program, arguments)
            #expect(relayed.status == status, "\(user), \(ending): \(relayed.status), \(relayed.terminalText)")
            #expect(relayed.terminalText.hasPrefix(Self.mark + "bye\n"), "\(user), \(ending): \(relayed.terminalText)")
        }
    }

    /// An app printing faster than the terminal shows blocks: with nobody reading the terminal
    /// it gets no further than the pipe and the terminal's own buffers hold (far below the 2 MiB
    /// it tries to write); read again, every byte arrives and the app ends.
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func aFastAppBlocksInsteadOfTheRelayBuffering(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install(Self.appID, product: "escape-probe")
        let terminal = try Terminal(owner: try await user.ids())
        defer { terminal.close() }
        let total = 2 << 20
        let counter = app.data + "/written"
        let flood = [app.executable, "flood", String(total), counter]
        let (program, arguments) = try await user.command(Products.path("health-sandbox"), sandboxed(world, app) + flood)
        let written: @Sendable () -> Int = { Int((try? String(contentsOfFile: counter, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0 }
        // Unread from the start: once the app has written (a loaded machine may take seconds to
        // launch it), it gets 1.5 s more to go as far as it can.
        let blocked = try await terminal.capture(program, arguments, columns: 200, stall: .zero) {
            let deadline = Date().addingTimeInterval(60)
            while written() == 0, Date() < deadline { usleep(50_000) }
            usleep(1_500_000)
            return written()
        }
        #expect(blocked.stalled > 0 && blocked.stalled < 512 << 10, "\(user): the app wrote \(blocked.stalled) bytes while nobody read the terminal")
        #expect(blocked.status == 0, "\(user): \(blocked.status)")
        let rows = blocked.terminalText.split(separator: "\n")
        #expect(rows.count == total / 64, "\(user): \(rows.count) rows of \(total / 64)")
        #expect(rows.allSatisfy { $0 == Self.mark + String(repeating: "x", count: 63) }, "\(user): a row differs")
    }

    private func sandboxed(_ world: EscapeWorld, _ app: (executable: String, data: String)) -> [String] {
        ["run", Self.appID, "--socket", world.adminSocket, "--data", app.data, "--"]
    }
}
