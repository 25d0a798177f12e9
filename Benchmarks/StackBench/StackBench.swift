import BenchSupport
import Foundation
import GRDB

/// The orchestrator: fills the stores, starts healthd, runs each app side and each limit, and
/// prints the table.
struct StackBench {
    struct Options {
        var days = 365
        var batches = 100          // save([1000]) calls
        var singleSaves = 2_000    // durable 1-sample saves, one writer
        var writerSaves = 1_600    // in all, per writer count
        var calls = 5_000          // unary calls
        var rounds = 7             // query and collection rounds
        var writerCounts = [4, 16, 64]
        /// `--round-deadline S`: an app process ends with an error (and how to capture where it
        /// waits) when one of its rounds takes longer than S seconds (`RoundDeadline`).
        var roundDeadline = RoundDeadline.defaultSeconds
        /// The rows to run (`--only unary,query`): all by default. For iterating on one path;
        /// the README's figures come from full runs.
        var rows: Set<String> = Self.allRows
        /// `--scale 1000000,10000000`: only the flatness run (ScaleRun) to these sample counts.
        var scale: [Int] = []
        static let allRows: Set<String> = ["batch", "single", "writers", "unary", "query", "collection"]

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            while let flag = rest.popFirst() {
                guard let text = rest.popFirst() else { throw BenchFailed("\(flag) needs a value") }
                if flag == "--writers" {
                    writerCounts = text.split(separator: ",").compactMap { Int($0) }
                    continue
                }
                if flag == "--scale" {
                    scale = text.split(separator: ",").compactMap { Int($0) }
                    continue
                }
                if flag == "--only" {
                    rows = Set(text.split(separator: ",").map(String.init))
                    guard rows.isSubset(of: Self.allRows) else { throw BenchFailed("--only takes some of \(Self.allRows.sorted())") }
                    continue
                }
                guard let value = Int(text), value > 0 else { throw BenchFailed("\(flag) needs a positive number, got \(text)") }
                switch flag {
                case "--days": days = value
                case "--batches": batches = value
                case "--saves": singleSaves = value
                case "--writer-saves": writerSaves = value
                case "--calls": calls = value
                case "--rounds": rounds = value
                case "--round-deadline": roundDeadline = value
                default: throw BenchFailed("unknown option \(flag) (--days --batches --saves --writer-saves --writers --calls --rounds --round-deadline --only --scale)")
                }
            }
        }
    }

    let options: Options
    let executable = CommandLine.executablePath

    func run() async throws {
        print("stack-bench: \(options.days) days of per-minute steps, 10 days of heart rate; release healthd; \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        let loadStarted = ContinuousClock.now
        let healthd = try await StackHealthd(days: options.days)
        defer { healthd.stop() }
        print(String(format: "stores filled in %.1f s", seconds(ContinuousClock.now - loadStarted)))
        let environment = ["OPENHEALTH_APP_SOCKET": healthd.appSocket,
                           RoundDeadline.secondsKey: "\(options.roundDeadline)", RoundDeadline.healthdKey: "\(healthd.healthd.pid)"]
        if !options.scale.isEmpty {
            try ScaleRun(checkpoints: options.scale, rounds: options.rounds, executable: executable).run(healthd, environment: environment)
            return
        }
        var table = ResultTable()

        // Batched saves.
        if options.rows.contains("batch") {
            let healthdCPU = healthd.healthd.cpuNanoseconds
            let batchResults = try Spawn.start(executable, ["app", "save-batch", "\(options.batches)"], environment: environment).results()
            let batchSeconds = batchResults.prefix(1)
            // CPU per sample (the app's process CPU over its timed saves; healthd's over the whole
            // app run, whose one warm-up save adds 1/(batches+1)): a loaded machine stretches
            // wall-clock rates several-fold, these hardly.
            let samples = Double(options.batches * 1_000)
            print(String(format: "CPU per sample: app %.2f µs (its timed saves), healthd %.2f µs (%d saves + 1 warm-up)",
                         (batchResults.dropFirst().first ?? .nan) / samples * 1e6,
                         Double(healthd.healthd.cpuNanoseconds - healthdCPU) / 1_000 / (samples + 1_000), options.batches))
            let batched = Double(options.batches * 1_000) / (batchSeconds.first ?? .nan)
            let rawPlainBatch = try RawLimits.plainTable(directory: healthd.directory, rowsPerTransaction: 1_000, transactions: options.batches)
            let rawSchemaBatch = try RawLimits.projectSchema(directory: healthd.directory, rowsPerTransaction: 1_000, transactions: options.batches)
            table.add("save([1000]) batched", figure: batched, unit: "samples/s", limit: rawPlainBatch,
                      limitName: "SQLite 1000-row txns, FULL, two B-trees", goal: .atLeast(0.5))
            table.add("save([1000]) batched", figure: batched, unit: "samples/s", limit: rawSchemaBatch,
                      limitName: "same into the project's schema", goal: .atLeast(1 / 1.5))
        }

        // One writer, one sample per save (its raw rate is the writers' limit too).
        let needsRawSingle = options.rows.contains("single") || options.rows.contains("writers")
        let rawSingle = needsRawSingle
            ? try RawLimits.plainTable(directory: healthd.directory, rowsPerTransaction: 1, transactions: options.singleSaves) : .nan
        if options.rows.contains("single") {
            let healthdCPU = healthd.processCPUSeconds
            let single = try Spawn.start(executable, ["app", "save-one", "\(options.singleSaves)"], environment: environment).results().dropLast()
            // Steadier than the rate on a shared machine; the warm-up save is counted in.
            print(String(format: "  healthd CPU per durable save: %.0f µs", (healthd.processCPUSeconds - healthdCPU) * 1e6 / Double(options.singleSaves + 1)))
            let singleRate = Double(single.count) / (single.reduce(0, +) / 1_000)
            // p99 and the slowest save: a checkpoint run on the request path shows there, not in p50.
            table.add(String(format: "durable 1-sample save, 1 writer (p50 %.2f ms, p99 %.2f ms, max %.1f ms)",
                             percentile(Array(single), 0.5), percentile(Array(single), 0.99), single.max() ?? .nan),
                      figure: singleRate, unit: "saves/s", limit: rawSingle, limitName: "SQLite 1 row/txn, FULL", goal: .atLeast(0.8))
        }

        // Concurrent writer processes, 1,600 saves in all.
        for writers in options.writerCounts where options.rows.contains("writers") {
            let rate = try concurrentSaves(writers: writers, environment: environment, healthd: healthd)
            table.add("\(writers) writer processes, 1-sample saves", figure: rate, unit: "saves/s", limit: rawSingle,
                      limitName: "SQLite 1 row/txn, FULL, 1 writer", goal: writers == 16 ? .atLeast(3) : .none)
        }

        // Short unary calls, healthd and the app on one CPU.
        if options.rows.contains("unary") {
            let pingPong = try Spawn.start("/usr/bin/taskset", ["-c", "0", executable, "pingpong", "20000"]).results()
            try healthd.pin(cpus: "0")
            let unary = try Spawn.start("/usr/bin/taskset", ["-c", "0", executable, "app", "unary", "\(options.calls)"], environment: environment).results()
            try healthd.pin(cpus: "0-\(ProcessInfo.processInfo.activeProcessorCount - 1)")
            table.add("unary call p50, one CPU (authorizationStatus)", figure: percentile(unary, 0.5), unit: "µs",
                      limit: percentile(pingPong, 0.5), limitName: "raw Unix-socket ping-pong p50, 64 B", goal: .atMostTimes(3))
            print(Self.grpcioNote)
        }

        // Queries against raw SQL on the plain copy of the same rows.
        let plain = try DatabaseQueue(path: healthd.plainStorePath)
        if options.rows.contains("query") {
            let (sampleQuery, cpu) = try timedRounds("query", healthd: healthd, environment: environment)
            let rawSampleQuery = try rawRounds(plain) { db in _ = try StackData.sampleQueryRaw(db) }
            table.add("HKSampleQuery, 10,000 samples", figure: percentile(sampleQuery, 0.5), unit: "ms",
                      limit: percentile(rawSampleQuery, 0.5), limitName: "raw SQL, the same rows", goal: .atMostTimes(2))
            print(cpu)
        }
        if options.rows.contains("collection") {
            let (collection, cpu) = try timedRounds("collection", healthd: healthd, environment: environment)
            let rawCollection = try rawRounds(plain) { db in _ = try StackData.dailySumsRaw(db) }
            table.add("daily-sum collection, \(options.days) days", figure: percentile(collection, 0.5), unit: "ms",
                      limit: percentile(rawCollection, 0.5), limitName: "raw GROUP BY", goal: .atMostTimes(1))
            print(cpu)
        }
        try plain.close()

        table.print()
        print(String(format: "healthd RSS after the run: %.1f MiB", healthd.residentMiB))
    }

    static var grpcioNote: String {
        let probe = try? Spawn.run("/usr/bin/env", ["python3", "-c", "import grpc; print(grpc.__version__)"], quiet: true)
        return probe.map { "grpcio \($0.trimmingCharacters(in: .whitespacesAndNewlines)) is installed but not measured by this version" }
            ?? "grpcio: not installed (python3 -c 'import grpc' fails); the gRPC comparison is not measured"
    }

    /// `writers` app processes (spread over the four writer apps) each make their share of the
    /// saves from the same instant; the rate is all saves over the time until the last finished.
    private func concurrentSaves(writers: Int, environment: [String: String], healthd: StackHealthd) throws -> Double {
        let each = max(1, options.writerSaves / writers)
        let healthdCPU = healthd.processCPUSeconds
        defer {
            // Every writer's warm-up save counted in, as for one writer.
            print(String(format: "  healthd CPU per save, %d writers: %.0f µs", writers,
                         (healthd.processCPUSeconds - healthdCPU) * 1e6 / Double((each + 1) * writers)))
        }
        let startAt = Date().timeIntervalSince1970 + 1.5 + Double(writers) * 0.1
        let children = try (0..<writers).map { index in
            try Spawn.start(healthd.writerExecutables[index % StackHealthd.writerApps],
                            ["app", "save-one", "\(each)", String(startAt)], environment: environment)
        }
        let finished = try children.map { try $0.results().last ?? .nan }
        guard let last = finished.max(), last > startAt else { throw BenchFailed("\(writers) writers: no finish time") }
        return Double(each * writers) / (last - startAt)
    }

    /// The app side's timed rounds of `mode` (ms) and a line with the CPU each round cost the app
    /// and healthd (healthd's over the app's whole run, warm-up round included, so slightly high):
    /// on this shared machine CPU time moves far less between runs than wall-clock time.
    ///
    /// healthd's figure is the process's utime + stime (`/proc/PID/stat`, clock ticks), not the
    /// per-thread schedstat the batch row sums: a large query runs on a thread of its own that
    /// exits with its time, which only the process totals keep. Ticks are 10 ms: use enough rounds.
    private func timedRounds(_ mode: String, healthd: StackHealthd, environment: [String: String]) throws -> ([Double], String) {
        let healthdCPU = healthd.processCPUSeconds
        let values = try Spawn.start(executable, ["app", mode, "\(options.rounds)"], environment: environment).results()
        let healthdPerRound = (healthd.processCPUSeconds - healthdCPU) * 1_000 / Double(options.rounds + 1)
        guard let appPerRound = values.last else { throw BenchFailed("\(mode): no rounds") }
        return (Array(values.dropLast()), String(format: "  CPU per round: app %.2f ms, healthd %.2f ms", appPerRound, healthdPerRound))
    }

    /// `work` in one read transaction: a warm-up, then `rounds` timed runs, in ms.
    private func rawRounds(_ plain: DatabaseQueue, _ work: @escaping (Database) throws -> Void) throws -> [Double] {
        let rounds = options.rounds
        return try plain.read { db in
            try work(db)
            return try (0..<rounds).map { _ in
                let started = ContinuousClock.now
                try work(db)
                return seconds(ContinuousClock.now - started) * 1_000
            }
        }
    }
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}
