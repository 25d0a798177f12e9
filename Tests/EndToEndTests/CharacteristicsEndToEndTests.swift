import Foundation
import Testing

/// Characteristics through the whole stack: the user sets them with healthctl, apps (e2e-client
/// under health-sandbox) read them with HealthKit's synchronous calls, within their grants.
@Suite(.timeLimit(.minutes(10)), .serialized) struct CharacteristicsEndToEndTests {
    static let names = ["dateOfBirth", "biologicalSex", "bloodType", "fitzpatrickSkinType", "wheelchairUse", "activityMoveMode"]
    /// What `e2e-client characteristics` prints for a user who set nothing (the move mode's
    /// unset value is activeEnergy, 1).
    static let unset = """
        characteristic dateOfBirth none
        characteristic biologicalSex 0
        characteristic bloodType 0
        characteristic fitzpatrickSkinType 0
        characteristic wheelchairUse 0
        characteristic activityMoveMode 1
        ok 6

        """

    func setAll(_ broker: BrokerProcess) async throws {
        for (name, value) in [("dateOfBirth", "1984-03-02"), ("biologicalSex", "female"), ("bloodType", "AB-"),
                              ("fitzpatrickSkinType", "III"), ("wheelchairUse", "yes"), ("activityMoveMode", "move-time")] {
            let result = try await broker.healthctl(["characteristics", "set", name, value])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func anAppWithReadPermissionReadsWhatTheUserSet() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.profile")
        for name in Self.names { try await broker.set(reader, "read", name, allowed: true) }
        #expect(try await broker.runApp(reader, ["characteristics"]).stdout == Self.unset)

        try await setAll(broker)
        let read = try await broker.runApp(reader, ["characteristics"])
        #expect(read.stdout == """
            characteristic dateOfBirth 1984-03-02
            characteristic biologicalSex 1
            characteristic bloodType 6
            characteristic fitzpatrickSkinType 3
            characteristic wheelchairUse 2
            characteristic activityMoveMode 2
            ok 6

            """, "\(read)")

        let cleared = try await broker.healthctl(["characteristics", "unset", "bloodType"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try await broker.runApp(reader, ["characteristics"]).stdout.contains("characteristic bloodType 0\n"))
        let shown = try await broker.healthctl(["characteristics", "show"])
        #expect(shown.stdout.contains("Date Of Birth          1984-03-02\n"), "\(shown)")
        #expect(shown.stdout.contains("Blood Type             not set\n"), "\(shown)")
    }

    @Test func withoutReadPermissionEveryCharacteristicLooksUnset() async throws {
        let broker = try BrokerProcess()
        let denied = try await broker.installClient("org.test.denied")
        let neverAsked = try await broker.installClient("org.test.neverasked")
        let partly = try await broker.installClient("org.test.partly")
        for name in Self.names { try await broker.set(denied, "read", name, allowed: false) }
        try await broker.set(partly, "read", "bloodType", allowed: true)
        try await setAll(broker)

        #expect(try await broker.runApp(denied, ["characteristics"]).stdout == Self.unset)
        #expect(try await broker.runApp(neverAsked, ["characteristics"]).stdout == Self.unset)
        // A grant for one characteristic reveals that one only.
        #expect(try await broker.runApp(partly, ["characteristics"]).stdout
                == Self.unset.replacingOccurrences(of: "bloodType 0", with: "bloodType 6"))

        // Revoking takes effect at once.
        try await broker.set(partly, "read", "bloodType", allowed: false)
        #expect(try await broker.runApp(partly, ["characteristics"]).stdout == Self.unset)
    }

    @Test func readsAreLoggedAndBadValuesAreRefusedWithTheValidOnes() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.logged")
        try await broker.set(reader, "read", "bloodType", allowed: true)
        let set = try await broker.healthctl(["characteristics", "set", "bloodType", "O+"])
        #expect(set.status == 0, "\(set)")
        _ = try await broker.runApp(reader, ["characteristics"])
        let log = try await broker.healthctl(["log", "--json", "--app", reader])
        let reads = log.stdout.split(separator: "\n").filter { $0.contains("\"read\"") }
        #expect(reads.count == 6, "\(log)")
        #expect(reads.contains { $0.contains("HKCharacteristicTypeIdentifierBloodType") && $0.contains("\"count\":1") }, "\(log)")

        let wrong = try await broker.healthctl(["characteristics", "set", "bloodType", "Z"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("use one of: A+, A-, B+, B-, AB+, AB-, O+, O-"), "\(wrong)")
        let future = try await broker.healthctl(["characteristics", "set", "dateOfBirth", "2999-01-01"])
        #expect(future.status == 65, "\(future)")
        #expect(future.stderr.contains("between 1900-01-01 and today"), "\(future)")
    }
}
