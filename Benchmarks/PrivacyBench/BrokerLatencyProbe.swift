import BenchSupport
import Foundation
import HealthIPC
import HealthModel
import HealthWire

/// Through the whole broker: two real healthd processes serving the same probing app (this
/// process, bound by its credentials), one whose store holds N hidden samples of another app and
/// one whose store holds none. For every read state (`ReadState`) and every query kind
/// (`QueryCell`), the same call goes to both brokers in pairs whose order alternates (A B, then
/// B A), timed from sending the request to the end of its answer, with healthd's on-CPU time
/// read around it. Per cell: both medians and their difference (the goal is judged on it), the
/// median paired ratio and the CPU medians. Where the app may not see the hidden data, both
/// worlds must also give the same answer (`QueryCell.comparable`): the table says so per cell.
enum BrokerLatencyProbe {
    /// The goal per cell: within this many percent (issue 11).
    static let goal = 5.0

    /// `control`: the second store gets no hidden data either (the noise floor: two brokers on
    /// equal stores), but everything else — sizes of the own data, anchors, names — as for `hidden`.
    static func run(hidden: Int, calls: Int, states: [ReadState], control: Bool) async throws {
        print("privacy-bench broker: \(hidden) hidden samples of heart rate and of step count (a tenth as many "
              + "blood-pressure correlations and active-energy samples), \(calls) calls per cell and world"
              + (control ? "; CONTROL RUN: the second store holds no hidden data either" : ""))
        let app = AppManifest(id: BenchStoreBuilder.appID, displayName: "Probe", executable: CommandLine.executablePath, version: "1",
                              readUsageDescription: "benchmark", shareUsageDescription: "benchmark")
        let base = NSTemporaryDirectory() + "privacy-bench-broker-" + UUID().uuidString.prefix(8)
        let empty = BenchBroker(directory: base + "/empty"), full = BenchBroker(directory: base + "/full")
        defer {
            empty.remove()
            full.remove()
            try? FileManager.default.removeItem(atPath: base)
        }
        let plan = BenchPlan(hidden: hidden)
        let began = Date()
        let fullWorld = try await BenchStoreBuilder.build(plan, hidden: control ? 0 : hidden, app: app, in: full.storeDirectory)
        // The empty world's predicates name the same hidden UUIDs, which do not exist there.
        let emptyWorld = try await BenchStoreBuilder.build(plan, hidden: 0, app: app, in: empty.storeDirectory, naming: fullWorld)
        print(String(format: "stores built in %.0f s", Date().timeIntervalSince(began)))

        let cells = QueryCell.cells(plan)
        var results: [CellResult] = []
        for state in states {
            try BenchStoreBuilder.apply(state, appID: app.id, in: empty.storeDirectory)
            try BenchStoreBuilder.apply(state, appID: app.id, in: full.storeDirectory)
            // The reference row reads the hidden data in one world: fewer calls keep it short.
            let timed = state.seesHidden ? min(calls, max(5, calls / 20)) : calls
            let warmUp = state.seesHidden ? 1 : max(3, calls / 20)
            let requests = cells.map { ($0.request(emptyWorld), $0.request(fullWorld)) }
            var samples = cells.map { _ in CellSamples() }
            // Rounds, each on freshly started brokers and taking a share of every cell's calls:
            // a burst of load from other processes then falls on many cells a little rather than
            // on one, and whatever one healthd process gains by chance (where its memory and
            // threads landed) does not stay with one world for the whole run.
            let rounds = min(timed, 5)
            for round in 0..<rounds {
                let emptyClient = try empty.start(), fullClient = try full.start()
                for (index, cell) in cells.enumerated() {
                    for _ in 0..<warmUp {
                        _ = try await time(cell, emptyClient, requests[index].0, keep: false)
                        _ = try await time(cell, fullClient, requests[index].1, keep: false)
                    }
                }
                for (index, cell) in cells.enumerated() {
                    let share = timed / rounds + (round < timed % rounds ? 1 : 0)
                    for _ in 0..<share {
                        try await samples[index].pair(cell, (empty, full), requests[index])
                    }
                }
                empty.stop()
                full.stop()
            }
            for (index, cell) in cells.enumerated() {
                let result = try samples[index].result(cell, state)
                print(result.line)
                results.append(result)
            }
        }
        print("")
        print(LatencyTable.markdown(results, hidden: hidden, goal: goal, control: control))
        if results.contains(where: \.measuredNothing) {
            throw BenchFailed("some cells measured nothing but refused calls; their figures mean nothing")
        }
    }

    /// One cell's timed calls in both worlds, taken in pairs whose order alternates (A B, B A).
    struct CellSamples {
        var times: ([Double], [Double]) = ([], [])
        var answers: (Answer?, Answer?) = (nil, nil)

        /// healthd's CPU time per call, in µs (`BenchBroker.cpuNanoseconds`).
        var cpu: ([Double], [Double]) = ([], [])

        mutating func pair(_ cell: QueryCell, _ brokers: (BenchBroker, BenchBroker), _ requests: ([UInt8], [UInt8])) async throws {
            let keep = times.0.isEmpty  // the first pair's answers are compared
            /// One timed call; healthd's CPU time is read before and after, outside the timing.
            func measure(_ broker: BenchBroker, _ request: [UInt8]) async throws -> (micros: Double, answer: Answer, cpu: Double) {
                guard let client = broker.client else { throw BenchFailed("healthd in \(broker.directory) is not running") }
                let before = broker.cpuNanoseconds
                let call = try await time(cell, client, request, keep: keep)
                if case .firstMessage = cell.shape {
                    // The call goes on in healthd after its first message (the cancellation, the
                    // access-log commit): let it finish, so the CPU reading holds this call's whole
                    // work and none of it spills into the next call's.
                    try await Task.sleep(for: .milliseconds(5))
                }
                return (call.micros, call.answer, Double(broker.cpuNanoseconds &- before) / 1_000)
            }
            let a: (micros: Double, answer: Answer, cpu: Double), b: (micros: Double, answer: Answer, cpu: Double)
            if times.0.count.isMultiple(of: 2) {
                a = try await measure(brokers.0, requests.0)
                b = try await measure(brokers.1, requests.1)
            } else {
                b = try await measure(brokers.1, requests.1)
                a = try await measure(brokers.0, requests.0)
            }
            times.0.append(a.micros)
            times.1.append(b.micros)
            cpu.0.append(a.cpu)
            cpu.1.append(b.cpu)
            if keep { answers = (a.answer, b.answer) }
        }

        func result(_ cell: QueryCell, _ state: ReadState) throws -> CellResult {
            let ratios = zip(times.0, times.1).map { $1 / $0 }
            return CellResult(cell: cell.name, state: state, calls: times.0.count,
                              medians: (BenchData.median(times.0), BenchData.median(times.1)),
                              pairedRatio: BenchData.median(ratios),
                              cpu: (BenchData.median(cpu.0), BenchData.median(cpu.1)),
                              answers: (try answers.0?.summary(cell), try answers.1?.summary(cell)))
        }
    }

    /// One call's answer: its messages (kept only when asked) and their total size.
    struct Answer {
        var messages: [[UInt8]] = []
        var bytes = 0
        var failure: String?

        /// "N items, M bytes, digest", or the failure, to compare the two worlds' answers. The
        /// digest covers every byte but a sealed anchor's (`QueryCell.comparable`).
        func summary(_ cell: QueryCell) throws -> String {
            if let failure { return "error: \(failure)" }
            let items = try messages.reduce(0) { try $0 + cell.items($1) }
            var digest: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for message in messages {
                for byte in try cell.comparable(message) {
                    digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
                }
            }
            return "\(items) items, \(bytes) bytes, " + String(digest, radix: 16)
        }
    }

    /// One call: microseconds from sending the request to its last message.
    static func time(_ cell: QueryCell, _ client: RPCClient, _ request: [UInt8], keep: Bool) async throws -> (micros: Double, answer: Answer) {
        var answer = Answer()
        func take(_ message: [UInt8]) {
            answer.bytes += message.count
            if keep { answer.messages.append(message) }
        }
        let began = DispatchTime.now().uptimeNanoseconds
        do {
            switch cell.shape {
            case .unary:
                take(try await client.unary(cell.method.rawValue, request))
            case .stream:
                for try await message in client.serverStream(cell.method.rawValue, request) { take(message) }
            case .firstMessage:
                // Leaving the loop drops the stream, which cancels the call (CANCEL to healthd).
                for try await message in client.serverStream(cell.method.rawValue, request) {
                    take(message)
                    break
                }
            }
        } catch let status as RPCStatus {
            answer.failure = "\(status.code) \(status.message)"
        }
        let micros = Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000
        return (micros, answer)
    }
}

/// One cell's outcome.
struct CellResult {
    let cell: String
    let state: ReadState
    let calls: Int
    let medians: (Double, Double)
    /// The median over pairs of (N hidden ÷ 0 hidden) for calls made one right after the other:
    /// a cross-check less sensitive to load that changes during the run.
    let pairedRatio: Double
    /// Median healthd CPU time per call, µs, in each world.
    let cpu: (Double, Double)
    /// Each world's answer to the first timed call ("N items, M bytes").
    let answers: (String?, String?)

    var difference: Double { (medians.1 - medians.0) / medians.0 * 100 }
    var sameAnswer: Bool { answers.0 == answers.1 }
    /// The calls never reached a query: the connection was refused, healthd was gone, or a limit
    /// turned them away. Such a cell measured nothing and must not pass.
    var measuredNothing: Bool {
        [answers.0, answers.1].contains { answer in
            guard let answer = answer?.lowercased() else { return true }
            return ["unauthenticated", "unavailable", "resource", "internal", "permission"].contains { answer.hasPrefix("error: " + $0) }
        }
    }
    var cpuDifference: Double { (cpu.1 - cpu.0) / max(cpu.0, 1) * 100 }

    var line: String {
        "\(cell) | \(state.label): \(LatencyTable.micros(medians.0)) µs vs \(LatencyTable.micros(medians.1)) µs ("
            + String(format: "%+.1f %%, paired %+.1f %%, healthd CPU %.0f vs %.0f µs %+.1f %%", difference, (pairedRatio - 1) * 100,
                     cpu.0, cpu.1, cpuDifference) + "), answers \(answers.0 ?? "-") / \(answers.1 ?? "-")"
    }
}
