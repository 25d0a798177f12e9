import Foundation
import HealthModel
import Testing
import TestSupport

extension AppleSnippetTests {
    static let gad7 = HKScoredAssessmentTypeIdentifier.GAD7.rawValue
    static let phq9 = HKScoredAssessmentTypeIdentifier.PHQ9.rawValue

    /// developer.apple.com/documentation/healthkit/hkgad7assessment and …/hkphq9assessment
    /// (init(date:answers:metadata:), answers, risk), …/hkscoredassessment (score) and
    /// …/hksamplepredicate/phq9assessment(_:): saved by a sandboxed app through healthd's
    /// encrypted store and read back. GAD-7 1+1+2+3+0+1+1 = 9, mild (5-9); PHQ-9
    /// 3+3+3+2+2+1+1+0 with preferNotToAnswer (0) = 15, moderatelySevere (15-19).
    @Test func gad7AndPHQ9AssessmentsAreSavedScoredAndReadBack() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-assessments")
        for type in [Self.gad7, Self.phq9] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        let result = try await broker.runApp(app, ["snippet", "assessments"])
        #expect(result.okValue == "1 9 mild 7 true 1 15 moderatelySevere preferNotToAnswer true", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkphq9assessment/init(date:answers:metadata:):
    /// exactly 7 (GAD-7) / 9 (PHQ-9) answers, preferNotToAnswer only for question 9 — HealthKit
    /// raises NSInvalidArgumentException; here the save fails with errorInvalidArgument (3)
    /// naming the count or the question, and nothing is stored.
    @Test func anAssessmentWithWrongAnswersIsRefusedOnSave() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-assessment-refused")
        for type in [Self.gad7, Self.phq9] {
            try await broker.set(app, "share", type, allowed: true)
        }
        let result = try await broker.runApp(app, ["snippet", "assessment-refused"])
        #expect(result.okValue == "3:true 3:true", "\(result)")
    }

    /// While the store is locked, a save succeeds as HealthKit's does (developer.apple.com/
    /// documentation/healthkit/hkhealthstore/save(_:withcompletion:)) and is journaled with its
    /// answers; at unlock the assessments arrive whole, scored as if saved unlocked.
    @Test func assessmentsSavedWhileTheStoreIsLockedArriveWithTheirAnswersAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-assessments-locked")
        for type in [Self.gad7, Self.phq9] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        let saved = try await broker.runApp(app, ["snippet", "assessments-save"])
        #expect(saved.okValue == "saved", "\(saved)")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0 && unlock.stdout.contains("merged"), "the saves were journaled: \(unlock)")
        let result = try await broker.runApp(app, ["snippet", "assessments-read"])
        #expect(result.okValue == "1 9 mild 7 true 1 15 moderatelySevere preferNotToAnswer true", "\(result)")
    }
}
