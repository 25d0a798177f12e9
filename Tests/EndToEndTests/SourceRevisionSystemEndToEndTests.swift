import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Issue 15: HKSourceRevision's `productType` and `operatingSystemVersion` (Apple: "A string that
/// identifies the device used to save the sample", developer.apple.com/documentation/healthkit/
/// hksourcerevision/init(source:version:producttype:operatingsystemversion:)). healthd stamps
/// each save with its host's (machine model or architecture, kernel release); imports keep what
/// the export's device names; every fetch path returns them; the source-revision predicate
/// matches them. Real healthd, sandboxed apps, `healthctl import`/`export`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SourceRevisionSystemEndToEndTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"

    /// What healthd should record on this machine, found here independently of healthd's code:
    /// the firmware's model name if the machine has one, else `uname -m`; the kernel release's
    /// leading major.minor.patch.
    static func host() throws -> (product: String, system: String) {
        var name = utsname()
        #expect(uname(&name) == 0)
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let placeholders: Set<String> = ["", "System Product Name", "To be filled by O.E.M.", "Default string", "None"]
        let model = ["/sys/class/dmi/id/product_name", "/sys/firmware/devicetree/base/model", "/proc/device-tree/model"]
            .lazy.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .map { $0.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(.controlCharacters)) }
            .first { !placeholders.contains($0) }
        let release = text(&name.release)
        var parts = release.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }.split(separator: ".").map(String.init)
        while parts.count < 3 { parts.append("0") }
        return (model ?? text(&name.machine), parts.prefix(3).joined(separator: "."))
    }

    /// A broker where a writer app has saved one step sample and a reader app may read steps.
    static func oneStepSaved() async throws -> (broker: BrokerProcess, writer: String, reader: String) {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.revision-writer")
        let reader = try await broker.installClient("org.test.revision-reader")
        try await broker.set(writer, "share", steps, allowed: true)
        try await broker.set(reader, "read", steps, allowed: true)
        #expect(try await broker.runApp(writer, ["save", steps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        return (broker, writer, reader)
    }

    /// A writer app saves a step sample; another app reads it through a sample query and an
    /// anchored query: both revisions name the host's product type and system version (not nil,
    /// not 0.0.0), which the writer never sent.
    @Test func anAppsSaveCarriesTheHostsProductTypeAndSystemOnSampleAndAnchoredQueries() async throws {
        let (broker, writer, reader) = try await Self.oneStepSaved()
        let result = try await broker.runApp(reader, ["snippet", "revision-systems"])
        #expect(result.okValue == "1", "\(result)")
        let host = try Self.host()
        #expect(host.system != "0.0.0")
        for kind in ["sample", "anchored"] {
            let lines = result.lines.filter { $0.hasPrefix("\(kind) ") }
            #expect(lines.count == 1, "\(result)")
            #expect(lines.first?.hasPrefix("\(kind) \(writer)|") == true, "\(result)")
            #expect(lines.first?.hasSuffix("|\(host.system)|\(host.product)") == true, "host \(host): \(result)")
        }
    }

    /// Apple's source-revision predicate with productType and operatingSystemVersion, each varied
    /// alone from the fetched revision: the revision itself 1, another product type 0,
    /// HKSourceRevisionAnyProductType 1, another system version 0, HKSourceRevisionAnyOperatingSystem 1.
    @Test func theSourceRevisionPredicateMatchesProductTypeAndSystemVersion() async throws {
        let (broker, writer, reader) = try await Self.oneStepSaved()
        let result = try await broker.runApp(reader, ["snippet", "revision-system-predicates", writer])
        #expect(result.okValue == "1 0 1 0 1", "\(result)")
    }

    /// Apple: the app cannot choose the revision. A save whose samples carry a forged source
    /// revision (another product type and system, sent over a raw connection) is stored with the
    /// host's, as any other save.
    @Test func aForgedProductTypeOrSystemInASaveIsNotRecorded() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.install(appID: "org.test.revision-forger", executable: Products.testProcessExecutable)
        try await broker.allowDirect(writer)
        #expect(try await broker.healthctl(["grant", writer, "share", "stepCount"]).status == 0)
        let reader = try await broker.installClient("org.test.revision-reader")
        try await broker.set(reader, "read", Self.steps, allowed: true)
        let forged = SampleRecord(
            uuid: UUID(), typeIdentifier: Self.steps, startDate: Date(timeIntervalSince1970: 1_700_000_000),
            endDate: Date(timeIntervalSince1970: 1_700_000_060), value: .quantity(10, unit: "count"),
            source: SourceRecord(bundleIdentifier: writer, name: "Forger", version: "1", productType: "iPhone14,2",
                                 operatingSystemVersion: SystemVersion(major: 17, minor: 1, patch: 0)))
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let saved = try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList([forged]).wireBytes()))
        #expect(saved.uuids.count == 1)
        let result = try await broker.runApp(reader, ["snippet", "revision-systems"])
        #expect(result.okValue == "1", "\(result)")
        let host = try Self.host()
        let line = result.lines.first { $0.hasPrefix("sample ") }
        #expect(line?.hasPrefix("sample \(writer)|") == true, "\(result)")
        #expect(line?.hasSuffix("|\(host.system)|\(host.product)") == true, "host \(host): \(result)")
        #expect(line?.contains("iPhone14,2") == false && line?.contains("17.1.0") == false, "\(result)")
    }

    /// An export's device description (`hardware:`, `software:`) is the imported objects'
    /// product type and system version, as Apple reports them for what the phone saved; a record
    /// without a device records neither (nil, 0.0.0), and values that cannot be one — a
    /// 300-character or control-character product, a system version that is not numbers — are
    /// left unrecorded, not guessed and not refused (the sample is imported). `healthctl export`
    /// writes the device back, so a second store importing the export reports the same.
    @Test func importedSamplesCarryTheirDevicesProductTypeAndSystemThroughAnExportRoundTrip() async throws {
        let original = try BrokerProcess()
        let xml = Self.exportXML
        let path = original.root + "/export.xml"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try await original.healthctl(["import", path, "--characteristics", "no"])
        #expect(imported.stdout.contains(", 0 refused."), "\(imported)")
        let reader = try await original.installClient("org.test.revision-reader")
        try await original.set(reader, "read", Self.steps, allowed: true)
        let before = try await original.runApp(reader, ["snippet", "revision-systems"])
        #expect(before.okValue == "5", "\(before)")
        let sampleLines = before.lines.filter { $0.hasPrefix("sample ") }
        func line(_ source: String) -> String? { sampleLines.first { $0.contains("/\(source)|") } }
        #expect(line("Phone")?.hasSuffix("|17.4|16.0.0|iPhone14,2") == true, "\(before)")
        #expect(line("No Device")?.hasSuffix("|nil|0.0.0|nil") == true, "\(before)")
        #expect(line("Long")?.hasSuffix("|nil|9.1.0|nil") == true, "\(before)")
        #expect(line("Tab")?.hasSuffix("|nil|0.0.0|nil") == true, "\(before)")
        #expect(line("Watch")?.hasSuffix("|nil|10.1.2|Watch6,1") == true, "\(before)")
        #expect(before.lines.filter { $0.hasPrefix("anchored ") }.map { $0.dropFirst("anchored ".count) }
                == sampleLines.map { $0.dropFirst("sample ".count) }, "\(before)")

        let zip = original.root + "/out/export.zip"
        try FileManager.default.createDirectory(atPath: original.root + "/out", withIntermediateDirectories: true)
        let exported = try await original.healthctl(["export", zip])
        #expect(exported.status == 0, "\(exported)\n\(original.log)")
        let copy = try BrokerProcess()
        let reimported = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(reimported.stdout.contains(", 0 refused."), "\(reimported)")
        let copyReader = try await copy.installClient("org.test.revision-reader")
        try await copy.set(copyReader, "read", Self.steps, allowed: true)
        let after = try await copy.runApp(copyReader, ["snippet", "revision-systems"])
        #expect(after.lines == before.lines, "before \(before.lines)\nafter \(after.lines)")
    }

    static let longProduct = String(repeating: "P", count: 300)
    static let exportXML = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-02 09:00:00 +0200"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" sourceVersion="17.4" device="&lt;&lt;HKDevice: 0x283a45810&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:16.0&gt;" unit="count" startDate="2024-05-01 09:00:00 +0200" endDate="2024-05-01 09:10:00 +0200" value="1234"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="No Device" unit="count" startDate="2024-05-01 10:00:00 +0200" endDate="2024-05-01 10:10:00 +0200" value="10"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Long" device="&lt;&lt;HKDevice: 0x1&gt;, name:Band, hardware:\#(longProduct), software:9.1&gt;" unit="count" startDate="2024-05-01 11:00:00 +0200" endDate="2024-05-01 11:10:00 +0200" value="11"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Tab" device="&lt;&lt;HKDevice: 0x2&gt;, name:Band, hardware:Band&#9;2, software:16.0 beta&gt;" unit="count" startDate="2024-05-01 12:00:00 +0200" endDate="2024-05-01 12:10:00 +0200" value="12"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" device="&lt;&lt;HKDevice: 0x3&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.1.2&gt;" unit="count" startDate="2024-05-01 13:00:00 +0200" endDate="2024-05-01 13:10:00 +0200" value="13"/>
        </HealthData>
        """#
}
