import Foundation
import HealthKit

// Snippets for GAD-7 and PHQ-9 assessments, written as Apple's pages show them (see
// AppleSnippets.swift). Only the `print` lines are the test's.

/// developer.apple.com/documentation/healthkit/hkgad7assessment/init(date:answers:metadata:) and
/// …/hkphq9assessment/init(date:answers:metadata:): two assessments saved, then read back with
/// the descriptor predicates `.gad7Assessment()` / `.phq9Assessment()` and an HKSampleQuery for
/// `HKScoredAssessmentType(.PHQ9)`. Prints each one's score, risk and answer count, and the
/// PHQ-9's last answer.
/// `save` and `read` run the halves alone (for the locked-store test: saved while locked,
/// read after unlock).
func assessmentsSnippet(_ healthStore: HKHealthStore, save: Bool = true, read: Bool = true) async throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    if save { try await saveAssessments(healthStore, date: date) }
    if read { try await readAssessments(healthStore, date: date) }
    if !read { print("ok saved") }
}

private func saveAssessments(_ healthStore: HKHealthStore, date: Date) async throws {
    let gad7 = HKGAD7Assessment(date: date, answers: [.severalDays, .severalDays, .moreThanHalfTheDays, .nearlyEveryDay,
                                                       .notAtAll, .severalDays, .severalDays], metadata: nil)
    let phq9 = HKPHQ9Assessment(date: date, answers: [.nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay, .moreThanHalfTheDays,
                                                       .moreThanHalfTheDays, .severalDays, .severalDays, .notAtAll, .preferNotToAnswer])
    try await healthStore.save([gad7, phq9])
}

private func readAssessments(_ healthStore: HKHealthStore, date: Date) async throws {
    let anxiety = try await HKSampleQueryDescriptor(predicates: [.gad7Assessment()], sortDescriptors: []).result(for: healthStore)
    let depression = try await HKSampleQueryDescriptor(predicates: [.phq9Assessment()], sortDescriptors: []).result(for: healthStore)
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: HKScoredAssessmentType(.PHQ9), predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    guard let first = anxiety.first, let second = depression.first, let queried = samples.first as? HKPHQ9Assessment else {
        usage("the saved assessments were not found")
    }
    print("ok \(anxiety.count) \(first.score) \(first.risk) \(first.answers.count) \(first.date == date)"
          + " \(depression.count) \(second.score) \(second.risk) \(second.answers.last.map { "\($0)" } ?? "none")"
          + " \(queried.uuid == second.uuid)")
}

/// A GAD-7 with six answers and a PHQ-9 with preferNotToAnswer for its first question, each
/// saved with a completion handler as Apple's `save(_:withCompletion:)` page shows. Prints
/// each refusal's HKError code and whether its message names what to fix.
func assessmentRefusedSnippet(_ healthStore: HKHealthStore) async throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let short = HKGAD7Assessment(date: date, answers: Array(repeating: .severalDays, count: 6), metadata: nil)
    let misplaced = HKPHQ9Assessment(date: date, answers: [.preferNotToAnswer] + Array(repeating: .notAtAll, count: 8))
    var printed: [String] = []
    for (sample, expected) in [(short as HKSample, "exactly 7 answers"), (misplaced, "question 1")] {
        let error: (any Error)? = await withCheckedContinuation { continuation in
            healthStore.save(sample) { success, error in
                continuation.resume(returning: success ? nil : error)
            }
        }
        guard let error = error as? HKError else { usage("an invalid assessment was saved") }
        printed.append("\(error.code.rawValue):\(error.message.contains(expected))")
    }
    print("ok \(printed.joined(separator: " "))")
}
