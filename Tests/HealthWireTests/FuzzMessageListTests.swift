import Foundation
import Testing

/// The `message` fuzz target (Fuzz/message) decodes every message type on the wire. Its list is
/// written by hand, so a message added later was left out: 29 of 85 were missing in session 16
/// (attachments, observer acknowledgements, effort relations, series queries…). This reads the
/// sources: every type HealthWire declares as a `WireMessage` must be in the target's list.
@Suite(.timeLimit(.minutes(10))) struct FuzzMessageListTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Names declared `struct|enum|extension NAME …: … WireMessage` in Sources/HealthWire.
    static func wireMessages() throws -> Set<String> {
        let sources = root.appendingPathComponent("Sources/HealthWire")
        let declaration = #/(?:struct|enum|extension|final class)\s+(\w+)[^{\n]*\bWireMessage\b/#
        var names = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: declaration) { names.insert(String(match.output.1)) }
        }
        return names.subtracting(["WireMessage"])
    }

    @Test func everyWireMessageIsFuzzed() throws {
        let fuzz = try String(contentsOf: Self.root.appendingPathComponent("Fuzz/message/MessageFuzz.swift"), encoding: .utf8)
        let listed = Set(fuzz.matches(of: #/(\w+)\.self/#).map { String($0.output.1) })
        let declared = try Self.wireMessages()
        #expect(declared.count >= 85, "the scan found \(declared.count) message types")
        #expect(declared.subtracting(listed).isEmpty, "not in Fuzz/message: \(declared.subtracting(listed).sorted())")
    }
}
