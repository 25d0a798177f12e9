import HealthModel
import Testing

/// The app id rule (`AppIDRule`), through `AppManifest.problems` where every manifest is checked:
/// ASCII by Unicode scalar, so no id differs in bytes from another yet equals it as a Swift
/// string (crashhunt22 finding 3: `com.example.\u{212A}eep` passed the `Set<Character>` check and
/// installed beside `com.example.Keep`); not starting with '-' or '.'; reverse-DNS, so no id is
/// an access-log actor name (redteam23 F1: an app installed as `manager` was logged as the user).
@Suite(.timeLimit(.minutes(10))) struct AppIDRuleTests {
    static func manifest(id: String) -> AppManifest {
        AppManifest(id: id, displayName: "Keep", executable: "/opt/keep/bin/keep", version: "1.0")
    }

    @Test(arguments: ["com.example.Keep", "org.example.steps_2", "a.b", "A-b.c_d", "a.b-.c_", String(repeating: "x", count: 126) + ".y"])
    func asciiIDsArePassed(id: String) {
        #expect(Self.manifest(id: id).problems.isEmpty, "\(id): \(Self.manifest(id: id).problems)")
    }

    /// A look-alike canonically equal to an ASCII id (KELVIN SIGN is K), other non-ASCII letters (ANGSTROM SIGN,
    /// a Cyrillic a), and the leading characters the rule names.
    @Test(arguments: ["com.example.\u{212A}eep", "com.example.\u{212B}", "com.example.caf\u{E9}", "com.example.cafe\u{301}",
                      "com.ex\u{430}mple.keep", "-com.example.keep", "--socket", ".hidden", "", String(repeating: "x", count: 129),
                      "com.example/keep", "com example",
                      // Not reverse-DNS: one part, or an empty one.
                      "a", "steps", "com.", "com..example", ".", String(repeating: "x", count: 128)])
    func otherIDsAreRefusedWithTheRule(id: String) {
        let problems = Self.manifest(id: id).problems
        #expect(problems.contains { $0.hasPrefix(AppIDRule.message) }, "\(id): \(problems)")
    }

    /// The look-alike is the same Swift string as the real id — the reason a character check is
    /// not enough — and the refusal spells it so the difference shows.
    @Test func theKelvinSignLookAlikeIsRefusedAndShown() {
        let lookAlike = "com.example.\u{212A}eep"
        #expect(lookAlike == "com.example.Keep")
        #expect(!AppIDRule.isValid(lookAlike))
        #expect(AppIDRule.spelled(lookAlike) == "com.example.\\u{212A}eep")
    }

    /// No app id can be an access-log actor that is no app — the ones there are and any added
    /// later as a `NonAppActor` case, dotted or not: the rule refuses each by name besides its shape.
    @Test func noNonAppActorCanBeAnAppID() {
        for actor in NonAppActor.allCases {
            #expect(!AppIDRule.isValid(actor.rawValue), "\(actor.rawValue)")
            #expect(Self.manifest(id: actor.rawValue).problems.contains { $0.hasPrefix(AppIDRule.message) }, "\(actor.rawValue)")
        }
        #expect(Set([AccessLogEntry.managerActor, AccessLogEntry.brokerActor, AccessLogEntry.unidentifiedActor])
                == Set(NonAppActor.allCases.map(\.rawValue)))
        #expect(AppIDRule.message.contains("manager, healthd, unidentified"))
    }
}
