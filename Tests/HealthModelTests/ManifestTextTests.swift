import HealthModel
import Testing

/// A manifest's texts are shown in healthctl's consent prompts ("Allow NAME to READ …? [y/N]"),
/// so none may hold a character that steers the terminal or reorders what it shows (session 17
/// red team, finding 3): `AppManifest.problems` refuses each one, in each shown field, naming
/// the field and the character. Generated: every character of the class × every field.
@Suite(.timeLimit(.minutes(10))) struct ManifestTextTests {
    static let valid = AppManifest(id: "org.example.steps", displayName: "Step Counter", executable: "/opt/steps/bin/steps",
                                   version: "1.0", readUsageDescription: "Shows your steps.", shareUsageDescription: "Records your walks.")

    /// Every character healthctl's terminal escaping treats as unsafe (`TerminalText`).
    static let unsafe: [Unicode.Scalar] = ([0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069] as [ClosedRange<UInt32>])
        .flatMap { $0 }.compactMap(Unicode.Scalar.init) + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].compactMap(Unicode.Scalar.init)

    enum Field: String, CaseIterable, CustomStringConvertible {
        case displayName, version, executable, readUsageDescription, shareUsageDescription
        var description: String { rawValue }

        /// The field's name in the manifest file, as the problem names it.
        var key: String {
            switch self {
            case .readUsageDescription: AppManifest.readUsageKey
            case .shareUsageDescription: AppManifest.shareUsageKey
            default: rawValue
            }
        }

        func set(_ text: String, in manifest: inout AppManifest) {
            switch self {
            case .displayName: manifest.displayName = text
            case .version: manifest.version = text
            case .executable: manifest.executable = text
            case .readUsageDescription: manifest.readUsageDescription = text
            case .shareUsageDescription: manifest.shareUsageDescription = text
            }
        }
    }

    @Test(arguments: Field.allCases)
    func everyTerminalControlCharacterIsRefusedInEveryShownField(field: Field) {
        #expect(Self.valid.problems.isEmpty, "control: \(Self.valid.problems)")
        #expect(Self.unsafe.count == 79)
        for scalar in Self.unsafe {
            var manifest = Self.valid
            // In the middle, after a normal start: what a prompt-rewriting name looks like.
            let base = field == .executable ? "/opt/steps/bin/steps" : "Step Counter"
            field.set(base + String(Character(scalar)) + "[8m", in: &manifest)
            let problems = manifest.problems
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            #expect(problems.contains { $0.hasPrefix(field.key + " ") && $0.contains(code) && $0.contains("character \(base.unicodeScalars.count + 1)") },
                    "\(field) with \(code): \(problems)")
        }
    }

    /// Text of every script stays allowed: right-to-left names, emoji, combining marks, CJK.
    @Test(arguments: ["خطوات", "שלום", "Schritte 👟", "Cafe\u{301}", "步数", "Step\u{00A0}Counter"])
    func ordinaryTextOfAnyScriptIsAccepted(text: String) {
        for field in Field.allCases where field != .executable {
            var manifest = Self.valid
            field.set(text, in: &manifest)
            #expect(manifest.problems.isEmpty, "\(field) = \(text): \(manifest.problems)")
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
