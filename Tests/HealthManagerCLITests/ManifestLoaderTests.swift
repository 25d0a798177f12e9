import Foundation
import HealthManagerCLI
import HealthModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct ManifestLoaderTests {
    func decode(_ json: String) throws(HealthCtlError) -> ManifestLoader.Loaded {
        try ManifestLoader.decode(Data(json.utf8), file: "sleep.json")
    }

    func problems(_ json: String) -> [String] {
        do {
            _ = try decode(json)
            Issue.record("accepted an invalid manifest")
            return []
        } catch {
            guard case let .manifestInvalid(file, problems) = error else {
                Issue.record("unexpected \(error)")
                return []
            }
            #expect(file == "sleep.json")
            return problems
        }
    }

    @Test func validManifestDecodesWithTheHealthKitKeys() throws {
        let loaded = try decode("""
            {"id": "com.example.sleep", "displayName": "Sleep Tracker", "executable": "/usr/bin/sleep-tracker",
             "version": "1.2", "NSHealthShareUsageDescription": "Charts your nights.",
             "NSHealthUpdateUsageDescription": "Saves sleep.", "entitlements": ["background-delivery"]}
            """)
        #expect(loaded.manifest == AppManifest(
            id: "com.example.sleep", displayName: "Sleep Tracker", executable: "/usr/bin/sleep-tracker", version: "1.2",
            readUsageDescription: "Charts your nights.", shareUsageDescription: "Saves sleep.",
            entitlements: ["background-delivery"]))
        #expect(loaded.warnings.isEmpty)
    }

    /// Apple's capabilities entitlement, spelled as in an entitlements file: an array holding
    /// `health-records` lets the app read clinical records; another value is refused naming it;
    /// a value that is not an array of strings is refused naming the key.
    @Test func theHealthRecordsEntitlementIsReadAsAppleSpellsIt() throws {
        let base = #""id": "com.example.records", "displayName": "Records", "executable": "/usr/bin/records", "version": "1""#
        let entitled = try decode("{\(base), \"com.apple.developer.healthkit.access\": [\"health-records\"]}")
        #expect(entitled.manifest.allowsHealthRecords)
        #expect(entitled.warnings.isEmpty, "\(entitled.warnings)")
        #expect(try decode("{\(base)}").manifest.allowsHealthRecords == false)
        #expect(try decode("{\(base), \"com.apple.developer.healthkit.access\": []}").manifest.allowsHealthRecords == false)
        let unknown = problems("{\(base), \"com.apple.developer.healthkit.access\": [\"health-recordz\"]}")
        #expect(unknown.contains { $0.contains("health-recordz") }, "\(unknown)")
        let mistyped = problems("{\(base), \"com.apple.developer.healthkit.access\": \"health-records\"}")
        #expect(mistyped.contains { $0.contains("\"com.apple.developer.healthkit.access\" must be an array of strings") }, "\(mistyped)")
    }

    /// `"network"` is a JSON boolean, or absent or null (off); anything else is refused, naming the key.
    @Test func networkIsABooleanThatDefaultsToOff() throws {
        let base = #""id": "com.example.sync", "displayName": "Sync", "executable": "/usr/bin/sync-app", "version": "1""#
        #expect(try decode("{\(base)}").manifest.network == false)
        let asking = try decode("{\(base), \"network\": true}")
        #expect(asking.manifest.network == true)
        #expect(asking.warnings.isEmpty, "\(asking.warnings)")
        #expect(try decode("{\(base), \"network\": false}").manifest.network == false)
        for wrong in [#""yes""#, "1", "[true]", "{}"] {
            let found = problems("{\(base), \"network\": \(wrong)}")
            #expect(found.contains { $0.contains("\"network\" must be true or false") }, "\(wrong): \(found)")
        }
    }

    @Test func syntaxErrorNamesTheFile() {
        let found = problems(#"{"id": "x",,}"#)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("not valid JSON") == true)
        let message = HealthCtlError.manifestInvalid(file: "sleep.json", problems: found).description
        #expect(message.hasPrefix("sleep.json: not valid JSON"))
    }

    @Test func everyMissingOrMistypedKeyIsReported() {
        let found = problems(#"{"id": "com.example.x", "version": 3, "entitlements": "background-delivery"}"#)
        #expect(found == [
            #"missing required key "displayName" (a string)"#,
            #"missing required key "executable" (a string)"#,
            #""version" must be a string"#,
            #""entitlements" must be an array of strings"#,
        ])
    }

    @Test func modelValidationProblemsAreAllListed() {
        let found = problems("""
            {"id": ".bad id", "displayName": "X", "executable": "relative/path", "version": "1",
             "entitlements": ["root"]}
            """)
        #expect(found.count == 3)
        #expect(found.contains("executable must be an absolute path"))
        #expect(found.contains { $0.hasPrefix("id must be") })
        #expect(found.contains { $0.hasPrefix("unknown entitlement root") })
        let message = HealthCtlError.manifestInvalid(file: "sleep.json", problems: found).description
        #expect(message.hasPrefix("sleep.json is not a valid app manifest:\n  - "))
    }

    @Test func nonObjectIsRefused() {
        #expect(problems("[1, 2]") == ["the manifest must be a JSON object ({ … })"])
    }

    @Test func misspeltUsageKeyIsAWarning() throws {
        let loaded = try decode("""
            {"id": "com.example.x", "displayName": "X", "executable": "/bin/x", "version": "1",
             "NSHealthShareUsageDescriptio": "typo"}
            """)
        #expect(loaded.manifest.readUsageDescription == nil)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings[0].hasPrefix(#"sleep.json: unknown key "NSHealthShareUsageDescriptio" is ignored"#))
    }

    @Test func missingFileSaysSo() {
        #expect(throws: HealthCtlError.manifestUnreadable(file: "/nonexistent/app.json", reason: "No such file or directory")) {
            try ManifestLoader.load(path: "/nonexistent/app.json")
        }
    }
}
