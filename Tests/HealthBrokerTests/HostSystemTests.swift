import Foundation
@testable import HealthBroker
import HealthModel
import Testing

/// What healthd records as the host's product type and system version (issue 15).
@Suite(.timeLimit(.minutes(10))) struct HostSystemTests {
    /// A kernel release's leading major.minor.patch; missing parts are 0, and a release that
    /// does not start with a number records nothing rather than a guess.
    @Test(arguments: [
        ("6.1.0-13-amd64", "6.1.0"), ("6.18.44-fc-v669", "6.18.44"), ("5.15.0", "5.15.0"), ("6.8", "6.8.0"),
        ("4.19.0+", "4.19.0"), ("6.1.0.1-rt", "6.1.0"), ("6..1", "6.0.0"), ("", "0.0.0"), ("unknown", "0.0.0"),
        ("99999999999.1.1", "0.0.0"),
    ])
    func theSystemVersionIsTheKernelReleasesLeadingNumbers(release: String, expected: String) {
        #expect(HostSystem.version(ofRelease: release).description == expected)
    }

    /// The first model file with a real name wins, trimmed of the newline DMI ends with and the
    /// NUL a device tree ends with; a placeholder firmware left is skipped; without any, the
    /// architecture `uname` reports.
    @Test func theProductTypeIsTheFirmwaresModelNameElseTheArchitecture() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostsystem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let placeholder = try file("dmi-placeholder", Array("To be filled by O.E.M.\n".utf8))
        let dmi = try file("dmi", Array("ThinkPad X1 Carbon Gen 9\n".utf8))
        let tree = try file("tree", Array("Raspberry Pi 4 Model B Rev 1.4".utf8) + [0])
        let missing = folder.appendingPathComponent("missing").path
        #expect(HostSystem.read(modelFiles: [missing, placeholder, dmi, tree]).productType == "ThinkPad X1 Carbon Gen 9")
        #expect(HostSystem.read(modelFiles: [tree, dmi]).productType == "Raspberry Pi 4 Model B Rev 1.4")
        var name = utsname()
        #expect(uname(&name) == 0)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(HostSystem.read(modelFiles: [missing, placeholder]).productType == machine)
        #expect(HostSystem.read(modelFiles: []).operatingSystemVersion != .unrecorded)
    }
}
