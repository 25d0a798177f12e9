@testable import HealthManagerCLI
import Testing

@Suite(.timeLimit(.minutes(10))) struct TextTableTests {
    @Test func columnsAlignAndTrailingSpaceIsTrimmed() {
        var table = TextTable([.init("ID", .right), .init("APP"), .init("TYPES")])
        table.append(["7", "Sleep Tracker", "Heart Rate"])
        table.append(["12", "Run", ""])
        #expect(table.rendered() == """
            ID  APP            TYPES
             7  Sleep Tracker  Heart Rate
            12  Run

            """)
    }

    @Test func missingCellsAreEmptyAndHeaderCanBeEmphasized() {
        var table = TextTable([.init("A"), .init("B")])
        table.append(["x"])
        #expect(table.rendered(emphasize: { "<\($0)>" }) == "<A  B>\nx\n")
    }

    @Test func styledOnlyWhenAskedFor() {
        let plain = CommandIO(output: CapturedText(), errors: CapturedText(), input: ScriptedLines([]), usesStyling: false)
        let styled = CommandIO(output: CapturedText(), errors: CapturedText(), input: ScriptedLines([]), usesStyling: true)
        #expect(plain.emphasized("ID") == "ID")
        #expect(styled.emphasized("ID") == "\u{1B}[1mID\u{1B}[0m")
    }
}
