import HealthModel
import Testing

/// What an app's display name may not be (`DisplayNameRule`, redteam23 F5): the user's own
/// source name in any case or compatibility form; the comparison form two installed apps' names
/// are held apart in.
@Suite(.timeLimit(.minutes(10))) struct DisplayNameRuleTests {
    static func manifest(displayName: String) -> AppManifest {
        AppManifest(id: "com.example.scale", displayName: displayName, executable: "/opt/scale/bin/scale", version: "1.0")
    }

    /// "Health" as typed, in other cases, full-width, mathematical bold, with a zero-width space,
    /// a soft hyphen or spaces around it.
    @Test(arguments: ["Health", "health", "HEALTH", " Health ", "\u{FF28}\u{FF45}\u{FF41}\u{FF4C}\u{FF54}\u{FF48}",
                      "\u{1D407}\u{1D41E}\u{1D41A}\u{1D425}\u{1D42D}\u{1D421}", "Heal\u{200B}th", "Heal\u{AD}th", "HEAL\u{200D}TH"])
    func theUsersOwnSourceNameIsRefused(name: String) {
        let problems = Self.manifest(displayName: name).problems
        #expect(problems.contains { $0.contains("the name your own entries show under") }, "\(name.unicodeScalars.map(\.value)): \(problems)")
    }

    @Test(arguments: ["Health Coach", "Healthy", "My Health", "Heath", "Step Counter"])
    func otherNamesPass(name: String) {
        #expect(Self.manifest(displayName: name).problems.isEmpty, "\(name): \(Self.manifest(displayName: name).problems)")
    }

    @Test func namesAreComparedFoldedAndWithoutInvisibleCharacters() {
        #expect(DisplayNameRule.same("Sleep Tracker", "sleep  TRACKER"))
        #expect(DisplayNameRule.same("Sleep Tracker", "Sleep\u{00A0}Tracker"))
        #expect(DisplayNameRule.same("Stra\u{DF}e", "STRASSE"))
        #expect(DisplayNameRule.same("\u{FB01}t", "fit"))
        #expect(DisplayNameRule.same("Cafe\u{301}", "Caf\u{E9}"))
        #expect(!DisplayNameRule.same("Sleep Tracker", "Sleep Tracker 2"))
        #expect(!DisplayNameRule.same("Sleep Tracker", "SleepTracker"))
    }
}
