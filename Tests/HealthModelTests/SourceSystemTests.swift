import HealthModel
import Testing

/// The values HKSourceRevision's productType and operatingSystemVersion are made of (issue 15):
/// what counts as a system version or a product type, and how an import finds them in a device.
@Suite(.timeLimit(.minutes(10))) struct SourceSystemTests {
    @Test(arguments: [
        ("16", "16.0.0"), ("16.0", "16.0.0"), ("17.1.2", "17.1.2"), ("0.0.0", "0.0.0"), ("999999999.0.1", "999999999.0.1"),
    ])
    func aVersionOfOneToThreeNumbersIsRead(text: String, expected: String) {
        #expect(SystemVersion(parsing: text)?.description == expected)
    }

    /// Extremes: empty parts, signs, spaces, a fourth part, a part past 9 digits (past `Int` on
    /// no platform, but past what the wire writes), non-ASCII digits, NUL, a very long text.
    @Test(arguments: ["", ".", "16.", ".16", "16..0", "-1.0.0", "+1", " 16.0", "16.0 beta", "1.2.3.4", "1000000000",
                      "١٦.٠", "16\u{0}.0", String(repeating: "1", count: 10_000)])
    func anythingElseIsNoVersion(text: String) {
        #expect(SystemVersion(parsing: text) == nil)
    }

    @Test func aProductTypeIsShortPrintableText() {
        #expect(SourceRecord.productType("iPhone14,2") == "iPhone14,2")
        #expect(SourceRecord.productType("ThinkPad X1 Carbon Gen 9") == "ThinkPad X1 Carbon Gen 9")
        #expect(SourceRecord.productType(String(repeating: "a", count: 256)) != nil)
        for refused in [nil, "", String(repeating: "a", count: 257), String(repeating: "é", count: 129), "iPhone\u{0}14,2",
                        "Band\t2", "line\nbreak", "\u{7F}"] {
            #expect(SourceRecord.productType(refused) == nil, "\(String(reflecting: refused))")
        }
        // Invalid UTF-8 never reaches here as bytes: decoding replaced it (U+FFFD), which is text.
        let decoded = String(decoding: [0x69, 0xFF, 0x50], as: UTF8.self)
        #expect(SourceRecord.productType(decoded) == "i\u{FFFD}P")
    }

    /// An import's revision: the device's hardware and software, each left unrecorded alone when
    /// it cannot be one.
    @Test func anImportedRevisionIsWhatItsDeviceNames() {
        let source = SourceRecord(bundleIdentifier: "@import/Apple Health/iPhone", name: "iPhone", version: "17.4",
                                  productType: "host", operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
        let phone = source.savedOn(DeviceRecord(hardwareVersion: "iPhone14,2", softwareVersion: "16.0"))
        #expect(phone.productType == "iPhone14,2" && phone.operatingSystemVersion == SystemVersion(major: 16, minor: 0, patch: 0))
        #expect(phone.version == "17.4" && phone.bundleIdentifier == source.bundleIdentifier)
        let badSoftware = source.savedOn(DeviceRecord(hardwareVersion: "iPhone14,2", softwareVersion: "16.0 beta"))
        #expect(badSoftware.productType == "iPhone14,2" && badSoftware.operatingSystemVersion == .unrecorded)
        let badHardware = source.savedOn(DeviceRecord(hardwareVersion: "x\u{0}", softwareVersion: "16.0"))
        #expect(badHardware.productType == nil && badHardware.operatingSystemVersion.major == 16)
        let none = source.savedOn(nil)
        #expect(none.productType == nil && none.operatingSystemVersion == .unrecorded && !none.recordsSystem)
    }

    /// nil in a match is "any"; a value matches only an equal one, each field alone.
    @Test func aSourceRevisionMatchComparesEachFieldUnlessAny() {
        let source = SourceRecord(bundleIdentifier: "a", name: "A", version: "1", productType: "P",
                                  operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
        let six = SystemVersion(major: 6, minor: 1, patch: 0)
        #expect(SourceRevisionMatch(bundleIdentifier: "a", version: nil).matches(source))
        #expect(SourceRevisionMatch(bundleIdentifier: "a", version: nil, productType: "P").matches(source))
        #expect(!SourceRevisionMatch(bundleIdentifier: "a", version: nil, productType: "Q").matches(source))
        #expect(SourceRevisionMatch(bundleIdentifier: "a", version: nil, operatingSystemVersion: six).matches(source))
        #expect(!SourceRevisionMatch(bundleIdentifier: "a", version: nil, operatingSystemVersion: .unrecorded).matches(source))
        #expect(!SourceRevisionMatch(bundleIdentifier: "a", version: .some("2"), productType: "P", operatingSystemVersion: six).matches(source))
        #expect(!SourceRevisionMatch(bundleIdentifier: "b", version: nil, productType: "P", operatingSystemVersion: six).matches(source))
        // "" asks for no product type recorded, as the store's '' (SampleSQL.sourceSystem).
        let unrecorded = SourceRecord(bundleIdentifier: "a", name: "A")
        #expect(SourceRevisionMatch(bundleIdentifier: "a", version: nil, productType: "").matches(unrecorded))
        #expect(!SourceRevisionMatch(bundleIdentifier: "a", version: nil, productType: "").matches(source))
        #expect(SourceRevisionMatch(bundleIdentifier: "a", version: nil, operatingSystemVersion: .unrecorded).matches(unrecorded))
    }
}
