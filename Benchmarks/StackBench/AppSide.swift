import BenchSupport
import Foundation
import Glibc
import HealthKit

/// The app side: `stack-bench app MODE …` runs in a separate process (an installed app to
/// healthd, connecting by `OPENHEALTH_APP_SOCKET`) and uses the HealthKit SDK exactly as an
/// app would. Each mode prints one line, "result v1 v2 …", that the orchestrator parses.
enum AppSide {
    static let savedType = HKQuantityType(.activeEnergyBurned)

    static func run(_ arguments: [String]) async throws {
        guard let mode = arguments.first else { throw BenchFailed("app: no mode") }
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1
        let store = HKHealthStore()
        let deadline = RoundDeadline(mode: mode)
        switch mode {
        case "save-batch":
            // `count` saves of 1,000 samples each; one warm-up save first (connection, caches).
            try await deadline.round(0) { try await store.save(samples(1_000, offset: 0)) }
            let batches = (1...count).map { samples(1_000, offset: $0 * 1_000) }
            let started = ContinuousClock.now, cpuStarted = processCPUSeconds()
            for (index, batch) in batches.enumerated() { try await deadline.round(index + 1) { try await store.save(batch) } }
            report([seconds(ContinuousClock.now - started), processCPUSeconds() - cpuStarted])
        case "save-one":
            // `count` single-sample saves, one after another; arguments[2], when present, is
            // the wall-clock instant (seconds since 1970) to start at, so several writer
            // processes start together. Prints the latencies (ms), then the finish instant.
            try await deadline.round(0) { try await store.save(samples(1, offset: 0)) }
            let objects = (1...count).map { samples(1, offset: $0 * 7 + Int(getpid()) * 100_000) }
            if arguments.count > 2, let startAt = Double(arguments[2]) {
                let wait = startAt - Date().timeIntervalSince1970
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            }
            var latencies: [Double] = []
            latencies.reserveCapacity(count)
            for (index, object) in objects.enumerated() {
                let started = ContinuousClock.now
                try await deadline.round(index + 1) { try await store.save(object) }
                latencies.append(seconds(ContinuousClock.now - started) * 1_000)
            }
            report(latencies + [Date().timeIntervalSince1970])
        case "unary":
            // `count` authorizationStatus calls (a short unary call), after 200 warm-up calls.
            for _ in 0..<200 { _ = store.authorizationStatus(for: savedType) }
            var latencies: [Double] = []
            for index in 0..<count {
                deadline.begin(index + 1)  // outside the timed part: these latencies are µs
                let started = ContinuousClock.now
                _ = store.authorizationStatus(for: savedType)
                latencies.append(seconds(ContinuousClock.now - started) * 1_000_000)
                deadline.end()
            }
            report(latencies)
        case "query":
            // HKSampleQuery of 10,000 heart-rate samples sorted by start, `count` rounds after a
            // warm-up; prints each round's ms.
            let (start, end) = StackData.tenThousandRange
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.heartRate),
                                             predicate: HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate))],
                sortDescriptors: [SortDescriptor(\.startDate)])
            var rounds: [Double] = []
            var cpuStarted = 0.0
            for round in 0...count {
                if round == 1 { cpuStarted = processCPUSeconds() }
                let started = ContinuousClock.now
                let found = try await deadline.round(round) { try await descriptor.result(for: store) }
                guard found.count == 10_000 else { throw BenchFailed("query: expected 10,000 samples, got \(found.count)") }
                if round > 0 { rounds.append(seconds(ContinuousClock.now - started) * 1_000) }
            }
            // Last: this process's CPU (ms) per timed round, which a loaded machine inflates far
            // less than the wall-clock rounds.
            report(rounds + [(processCPUSeconds() - cpuStarted) * 1_000 / Double(count)])
        case "collection":
            // HKStatisticsCollectionQuery: daily step sums over the stored days, `count` rounds.
            let descriptor = HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum,
                anchorDate: StackData.start, intervalComponents: DateComponents(day: 1), timeZone: StackData.zone)
            var rounds: [Double] = []
            var cpuStarted = 0.0
            for round in 0...count {
                if round == 1 { cpuStarted = processCPUSeconds() }
                let started = ContinuousClock.now
                let collection = try await deadline.round(round) { try await descriptor.result(for: store) }
                guard !collection.statistics().isEmpty else { throw BenchFailed("collection: no statistics") }
                if round > 0 { rounds.append(seconds(ContinuousClock.now - started) * 1_000) }
            }
            report(rounds + [(processCPUSeconds() - cpuStarted) * 1_000 / Double(count)])  // CPU per round, as in the query mode
        case "scale-save":
            try await scaleSave(Array(arguments.dropFirst()), store)
        case "scale-read":
            try await scaleRead(Array(arguments.dropFirst()), store)
        default:
            throw BenchFailed("app: unknown mode \(mode)")
        }
    }

    /// `count` active-energy samples one second apart, starting `offset` seconds into 2025.
    static func samples(_ count: Int, offset: Int) -> [HKQuantitySample] {
        let base = Date(timeIntervalSince1970: 1_735_689_600 + Double(offset))
        return (0..<count).map { index in
            let start = base.addingTimeInterval(Double(index))
            return HKQuantitySample(type: savedType, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 1 + Double(index % 50)),
                                    start: start, end: start.addingTimeInterval(1))
        }
    }

    /// CPU time of this whole process (every thread) so far, in seconds.
    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func report(_ values: [Double]) {
        print("result " + values.map { String($0) }.joined(separator: " "))
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
