import BenchSupport
import Foundation
import Glibc
import HealthModel

/// `stack-bench validation-cost [ROUNDS]`: the CPU each step of a `save([1000])` that issue 17's
/// second round changed costs per sample, the way it was and the way it is, in this process (CPU
/// time of this thread, median of ROUNDS; load on the machine moves it far less than wall time).
/// The "was" steps are rebuilt here from the public API as the code before the change ran them.
enum ValidationCost {
    static func run(rounds: Int) throws {
        let type = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
        let base = Date(timeIntervalSince1970: 1_735_689_600)
        let records = (0..<1_000).map { index in
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: base.addingTimeInterval(Double(index)),
                         endDate: base.addingTimeInterval(Double(index + 1)), value: .quantity(1 + Double(index % 50), unit: "kcal"))
        }
        print("per sample of a 1,000-sample batch of active energy in kcal, thread CPU time, median of \(rounds):")
        try compare("SDK: check before sending", records, rounds,
                    was: { batch in _ = try SampleValidator.canonicalized(batch: batch) },
                    now: { batch in try SampleValidator.check(batch: batch) })
        try compare("healthd: canonicalize, drop the client's source", records, rounds,
                    was: { batch in
                        _ = try SampleValidator.canonicalized(batch: batch).map { record in
                            var record = record
                            record.source = nil
                            return record
                        }
                    },
                    now: { batch in
                        try SampleValidator.canonicalize(batch: &batch)
                        for index in batch.indices { batch[index].source = nil }
                    })
        try compare("healthd: the batch's share and logged types", records, rounds,
                    was: { batch in
                        let types = Set(batch.flatMap(\.shareTypeIdentifiers))
                        _ = types.union(batch.map(\.typeIdentifier)).sorted()
                        _ = types.union(batch.map(\.typeIdentifier)).sorted()
                    },
                    now: { batch in
                        var types = Set<String>(), logged = Set<String>()
                        var previous: String?
                        for record in batch {
                            if record.typeIdentifier == previous, !record.carriesValuesOfOtherTypes { continue }
                            previous = record.typeIdentifier
                            record.forEachShareTypeIdentifier { types.insert($0) }
                            logged.insert(record.typeIdentifier)
                        }
                        _ = logged.union(types).sorted()
                    })
    }

    /// Each round gets its own copy of the batch, made outside the timed span (healthd's decoded
    /// batch is its own array, so converting it in place copies nothing).
    private static func compare(_ what: String, _ records: [SampleRecord], _ rounds: Int,
                                was: (inout [SampleRecord]) throws -> Void, now: (inout [SampleRecord]) throws -> Void) throws {
        func median(_ step: (inout [SampleRecord]) throws -> Void) throws -> Double {
            var times: [Double] = []
            for _ in 0..<rounds {
                var batch = records.map { $0 }
                let started = threadCPUNanoseconds()
                try step(&batch)
                times.append(Double(threadCPUNanoseconds() - started) / Double(records.count))
            }
            return percentile(times, 0.5)
        }
        let before = try median(was), after = try median(now)
        print(String(format: "| %@ | %.0f ns | %.0f ns | %.2f× |", what, before, after, before / after))
    }

    private static func threadCPUNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
