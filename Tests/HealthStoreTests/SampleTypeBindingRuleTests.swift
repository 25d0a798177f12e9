import Foundation
import Testing

/// The store's read rule (ARCHITECTURE.md, "Visible rows"): a statement names a sample type by
/// its row id, resolved once by `SampleSQL.typeID` and bound as `type_id = ?`. Writing
/// `type_id = (SELECT id FROM sample_types WHERE identifier = ?)` instead, or joining
/// `sample_types` to compare its identifier, made SQLite plan a window scope's MULTI-INDEX OR as
/// skip-scans over every type and source, hidden ones included (issue 11), and each copy of the
/// lookup is one more place to get it wrong. The statements are built in many files, so this
/// reads the SQL where it is written — every Swift source of the package, comments left out —
/// and fails naming the file, the line and the rule. `SampleSQL.swift` holds the one lookup by
/// identifier. `theRuleCatchesEveryForm` shows each forbidden form is found.
@Suite(.timeLimit(.minutes(10))) struct SampleTypeBindingRuleTests {
    /// The file whose `knownTypeID` is the one statement that may look a type up by identifier.
    static let lookupFile = "Sources/HealthStore/Records/SampleSQL.swift"

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func noStatementMatchesASampleTypeByItsIdentifier() throws {
        let sources = try Self.swiftSources()
        #expect(sources.count > 100, "too few sources found under \(Self.packageRoot.path)/Sources: \(sources.count)")
        var lookups = 0
        for (path, text) in sources {
            for violation in Self.violations(in: text) {
                if violation.rule == .lookupByIdentifier, path == Self.lookupFile {
                    lookups += 1
                    continue
                }
                Issue.record("""
                    \(path):\(violation.line): \(violation.rule.rawValue). The store's read rule (ARCHITECTURE.md, \
                    "Cost, not only rows"): resolve the type once with SampleSQL.typeID and bind it as `type_id = ?`
                    """)
            }
        }
        #expect(lookups == 1, "\(Self.lookupFile) should hold exactly one lookup of a type by identifier, found \(lookups)")
    }

    /// Each form the rule forbids, as it stood in the store before, is reported; the bound form
    /// and the joins that only read a type's identifier are not.
    @Test(arguments: [
        ("WHERE o.uuid = ? AND o.type_id = (SELECT id FROM sample_types WHERE identifier = ?) AND", Rule.subselect),
        ("WHERE type_id IN (\n  SELECT id\n  FROM sample_types WHERE identifier = ?)", Rule.subselect),
        ("SELECT id FROM sample_types WHERE identifier = ?", Rule.lookupByIdentifier),
        ("FROM sample_types AS t WHERE t.identifier IN (SELECT value FROM json_each(?))", Rule.lookupByIdentifier),
        ("JOIN sample_types t ON t.id = r.type_id\n WHERE a.workout_id = ? AND t.identifier = ?", Rule.joinedIdentifier),
        ("JOIN sample_types mt ON mt.id = m.type_id WHERE (CASE mt.identifier WHEN ? THEN 1 ELSE 0 END)", Rule.joinedIdentifier),
        ("FROM objects o, sample_types WHERE sample_types.identifier = ? AND", Rule.joinedIdentifier),
    ])
    func theRuleCatchesEveryForm(sql: String, rule: Rule) {
        #expect(Self.violations(in: "let sql = \"\"\"\n\(sql)\n\"\"\"").map(\.rule) == [rule], "\(sql)")
    }

    @Test(arguments: [
        "WHERE o.uuid = ? AND o.type_id = ? AND",
        "SELECT o.id, t.identifier FROM objects o JOIN sample_types t ON t.id = o.type_id WHERE o.uuid = ?",
        "SELECT identifier FROM sample_types WHERE id IN (SELECT type_id FROM objects WHERE change_seq > ?1)",
        "INSERT INTO sample_types (identifier) VALUES (?)",
        "// a comment may name `type_id = (SELECT id FROM sample_types WHERE identifier = ?)`",
    ])
    func theBoundFormPasses(sql: String) {
        #expect(Self.violations(in: sql).isEmpty, "\(sql)")
    }

    enum Rule: String, Sendable, CustomTestStringConvertible {
        case subselect = "a sample type is selected by a subquery of sample_types"
        case lookupByIdentifier = "a sample type is looked up by its identifier outside SampleSQL.knownTypeID"
        case joinedIdentifier = "a sample type is matched by comparing a joined sample_types identifier"
        var testDescription: String { rawValue }
    }

    struct Violation {
        var rule: Rule
        var line: Int
    }

    /// The forbidden forms in `text` (Swift source), each with its line. Whitespace, line breaks
    /// included, may stand between the words, as in the multi-line string literals SQL is written in.
    static func violations(in text: String) -> [Violation] {
        let code = withoutComments(text)
        var found: [(Rule, Range<String.Index>)] = []
        func matches(_ pattern: String, _ rule: Rule) {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
                Issue.record("the pattern for \(rule) does not compile: \(pattern)")
                return
            }
            for match in regex.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                if let range = Range(match.range, in: code) { found.append((rule, range)) }
            }
        }
        matches(#"\(\s*SELECT\b[^()]*?\bFROM\s+sample_types\b"#, .subselect)
        // `FROM sample_types [AS] [alias] WHERE [alias.]identifier`, reported where it is not
        // inside a subselect already reported.
        let subselects = found.map(\.1)
        matches(#"\bFROM\s+sample_types(?:\s+(?:AS\s+)?(?!WHERE\b)\w+)?\s+WHERE\s+(?:\w+\.)?identifier\s*(?:=|IN\b|IS\b|LIKE\b|GLOB\b)"#,
                .lookupByIdentifier)
        found.removeAll { rule, range in rule == .lookupByIdentifier && subselects.contains { $0.overlaps(range) } }
        // Every name `sample_types` goes by in a join (its alias, or itself), compared or switched on.
        var aliases: Set<String> = ["sample_types"]
        if let aliasRegex = try? NSRegularExpression(pattern: #"(?:\bJOIN|,)\s+sample_types\s+(?:AS\s+)?(\w+)"#, options: [.caseInsensitive]) {
            for match in aliasRegex.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                if let range = Range(match.range(at: 1), in: code) { aliases.insert(String(code[range])) }
            }
        }
        for alias in aliases.subtracting(sqlKeywords).sorted() {
            let name = NSRegularExpression.escapedPattern(for: alias)
            matches(#"(?<![\w.])\#(name)\.identifier\s*(?:=(?!=)|<>|!=|\bIN\b|\bIS\b|\bLIKE\b|\bGLOB\b)|\bCASE\s+\#(name)\.identifier\b"#, .joinedIdentifier)
        }
        return found.sorted { $0.1.lowerBound < $1.1.lowerBound }.map { rule, range in
            Violation(rule: rule, line: code[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 })
        }
    }

    /// Words that follow `sample_types` in a join without being an alias.
    static let sqlKeywords: Set<String> = ["ON", "USING", "WHERE", "JOIN", "LEFT", "INNER", "CROSS", "NATURAL", "GROUP", "ORDER", "LIMIT"]
        .reduce(into: []) { $0.formUnion([$1, $1.lowercased()]) }

    /// `text` with every `//` comment blanked to the end of its line, line breaks kept, so a
    /// comment that quotes a forbidden form (SampleSQL's does) is not reported and lines still count.
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let comment = line.range(of: "//") else { return String(line) }
            return String(line[..<comment.lowerBound])
        }.joined(separator: "\n")
    }

    /// Every Swift file under Sources/, by path relative to the package root.
    static func swiftSources() throws -> [(path: String, text: String)] {
        let root = packageRoot
        guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil) else {
            return []
        }
        var sources: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let path = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            sources.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return sources.sorted { $0.0 < $1.0 }
    }
}
