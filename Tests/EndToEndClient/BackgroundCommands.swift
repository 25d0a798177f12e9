// The background-delivery commands of the scripted test app, and what it does when
// `health-sandbox agent` launches it.
import Foundation
import HealthKit

/// The command to run when the app was started without arguments by `health-sandbox agent`
/// (`OPENHEALTH_LAUNCH_REASON=background-delivery`), as a real app would check its launch reason.
func launchedCommand() -> String? {
    ProcessInfo.processInfo.environment["OPENHEALTH_LAUNCH_REASON"] == "background-delivery" ? "background-launch" : nil
}

/// `background-enable TYPE [--frequency immediate|hourly|daily|weekly]` (default immediate): `ok enabled`.
func backgroundEnableCommand(_ arguments: [String], store: HKHealthStore) async throws {
    let name = values(of: "--frequency", in: arguments).first ?? "immediate"
    guard arguments.count >= 2, let frequency = HKUpdateFrequency.allCases.first(where: { $0.name == name }) else {
        print("usage: background-enable TYPE [--frequency immediate|hourly|daily|weekly]")
        exit(2)
    }
    try await store.enableBackgroundDelivery(for: type(arguments[1]), frequency: frequency)
    print("ok enabled")
}

/// `background-disable TYPE`, or `background-disable --all`: `ok disabled`.
func backgroundDisableCommand(_ arguments: [String], store: HKHealthStore) async throws {
    if arguments.contains("--all") {
        try await store.disableAllBackgroundDelivery()
    } else {
        guard arguments.count >= 2 else {
            print("usage: background-disable TYPE | --all")
            exit(2)
        }
        try await store.disableBackgroundDelivery(for: type(arguments[1]))
    }
    print("ok disabled")
}

/// Launched for background delivery: as a HealthKit app does at launch, starts an observer
/// query of each of its types (here from `E2E_CLIENT_BACKGROUND_TYPES`, comma-separated; a
/// real app knows its own). On each observer's first update it prints
/// `background-update TYPE N` (N: the samples of TYPE it can read) and calls the completion
/// handler; once every type had its update it prints `ok background` and exits (after
/// `E2E_CLIENT_BACKGROUND_LINGER` seconds, if set).
func backgroundLaunchCommand(store: HKHealthStore) async throws {
    let names = (ProcessInfo.processInfo.environment["E2E_CLIENT_BACKGROUND_TYPES"] ?? "").split(separator: ",").map(String.init)
    let sampleTypes = names.compactMap { type($0) as? HKSampleType }
    guard !sampleTypes.isEmpty else {
        print("usage: launched for background delivery without E2E_CLIENT_BACKGROUND_TYPES")
        exit(2)
    }
    emit("launched reason=background-delivery")
    let updates = AsyncThrowingStream<(HKSampleType, @Sendable () -> Void), any Error>.makeStream()
    let queries = sampleTypes.map { sampleType in
        HKObserverQuery(sampleType: sampleType, predicate: nil) { _, completion, error in
            if let error { updates.continuation.finish(throwing: error); return }
            updates.continuation.yield((sampleType, completion))
        }
    }
    for query in queries { store.execute(query) }
    var remaining = Set(sampleTypes.map(\.identifier))
    for try await (sampleType, completion) in updates.stream {
        let count = try await visibleSampleCount(sampleType, store: store)
        emit("background-update \(sampleType.identifier) \(count)")
        completion()
        remaining.remove(sampleType.identifier)
        if remaining.isEmpty { break }
    }
    // The last acknowledgement is sent after the handler returns; give it a moment to leave.
    try await Task.sleep(for: .milliseconds(200))
    if let wait = ProcessInfo.processInfo.environment["E2E_CLIENT_BACKGROUND_DROP_NEXT"].flatMap(Double.init), wait > 0 {
        try await dropNextUpdate(updates.stream, waitingAtMost: wait)
    }
    for query in queries { store.stop(query) }
    emit("ok background")
    // E2E_CLIENT_BACKGROUND_LINGER=S: stay running S seconds more (an app still running when
    // healthd asks for it again).
    if let linger = ProcessInfo.processInfo.environment["E2E_CLIENT_BACKGROUND_LINGER"].flatMap(Double.init), linger > 0 {
        try await Task.sleep(for: .seconds(linger))
    }
}

private func visibleSampleCount(_ sampleType: HKSampleType, store: HKHealthStore) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSampleQuery(sampleType: sampleType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples?.count ?? 0) }
        })
    }
}

/// E2E_CLIENT_BACKGROUND_DROP_NEXT=S: with its observer queries still running, prints
/// `awaiting-next-update`; if an update comes within S seconds (a hang guard for a relaunched
/// instance that gets none), prints `dropped-update TYPE` and exits at once without calling its
/// completion handler — an app that dies between receiving an update and acknowledging it.
private func dropNextUpdate(_ updates: AsyncThrowingStream<(HKSampleType, @Sendable () -> Void), any Error>,
                            waitingAtMost seconds: Double) async throws {
    emit("awaiting-next-update")
    let next = try await withThrowingTaskGroup(of: HKSampleType?.self) { group in
        group.addTask {
            for try await (sampleType, _) in updates { return sampleType }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
    guard let next else { return }
    emit("dropped-update \(next.identifier)")
    exit(0)
}
