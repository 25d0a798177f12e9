@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// The shortcuts that made reading an export faster keep its results: remembered device
/// descriptions parse as the parser does, past the memo's bound too, and placeholder UUIDs are
/// distinct version-4 UUIDs. Trimming matches what metadata values had before.
@Suite(.timeLimit(.minutes(10))) struct ImportSpeedPathTests {
    func description(_ index: Int) -> String {
        "<<HKDevice: 0x283a>, name:Watch \(index), manufacturer:Apple Inc., model:Watch, hardware:Watch6,\(index), software:10.\(index)>"
    }

    @Test func rememberedDevicesParseAsTheParserDoesEvenPastTheMemosBound() {
        // Twice round more distinct descriptions than the memo holds, so entries are dropped and
        // parsed again; each answer equals the uncached parse.
        for round in 0..<2 {
            for index in 0..<(ExportDevice.memoLimit + 40) {
                let text = description(index)
                #expect(ExportDevice.parse(text) == ExportDevice.parseUncached(text), "round \(round), device \(index)")
            }
        }
        #expect(ExportDevice.parse(description(3))?.hardwareVersion == "Watch6,3")
        #expect(ExportDevice.parse("not a device") == nil && ExportDevice.parse("not a device") == nil, "a miss is remembered as nil")
    }

    @Test func placeholderUUIDsAreDistinctVersion4UUIDs() {
        let uuids = (0..<20_000).map { _ in ExportConversion.placeholderUUID() }
        #expect(Set(uuids).count == uuids.count)
        #expect(uuids.allSatisfy { $0.uuid.6 >> 4 == 4 && $0.uuid.8 >> 6 == 0b10 })
    }

    @Test(arguments: [("  1 ", "1"), ("\t0", "0"), ("56 degF ", "56 degF"), ("   ", ""), ("", ""), ("a b", "a b")])
    func metadataValuesAreTrimmedOfSpacesAndTabs(input: String, expected: String) {
        #expect(ExportConversion.trimmed(input) == expected)
    }
}
