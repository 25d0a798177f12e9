import Foundation
import HealthIPC
import HealthModel
import HealthWire

/// Through the whole broker: two real healthd processes serving the same probing app (this
/// process, bound by its credentials), one whose store holds N hidden samples of each probed
/// type and one whose store holds none. For every read state (`ReadState`) and every query kind
/// (`QueryCell`), the same call goes to both brokers in turn (A B, then B A, so drift on a
/// loaded machine falls on both alike), timed from sending the request to the end of its
/// answer; the medians are compared. Where the app may not see the hidden data, both worlds
/// must also give the same answer (items and bytes, but for the sealed anchors' random nonces,
/// which have a fixed length): the table says so per cell.
enum BrokerLatencyProbe {
    /// The goal per cell: within this many percent (issue 11).
    static let goal = 5.0

    static func run(hidden: Int, calls: Int, states: [ReadState]) async throws {
        print("privacy-bench broker: \(hidden) hidden samples of heart rate and of step count (a tenth as many "
              + "blood-pressure correlations and active-energy samples), \(calls) calls per cell and world")
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
        let fullWorld = try await BenchStoreBuilder.build(plan, hidden: hidden, app: app, in: full.storeDirectory)
        // The empty world's predicates name the same hidden UUIDs, which do not exist there.
        let emptyWorld = try await BenchStoreBuilder.build(plan, hidden: 0, app: app, in: empty.storeDirectory, naming: fullWorld)
        print(String(format: "stores built in %.0f s", Date().timeIntervalSince(began)))

        let cells = QueryCell.cells(plan)
        var results: [CellResult] = []
        for state in states {
            try BenchStoreBuilder.apply(state, appID: app.id, in: empty.storeDirectory)
            try BenchStoreBuilder.apply(state, appID: app.id, in: full.storeDirectory)
            let emptyClient = try empty.start(), fullClient = try full.start()
            defer {
                empty.stop()
                full.stop()
            }
            // The reference row reads the hidden data in one world: fewer calls keep it short.
            let timed = state.seesHidden ? min(calls, max(5, calls / 20)) : calls
            let warmUp = state.seesHidden ? 1 : max(5, calls / 10)
            for cell in cells {
                let requests = (cell.request(emptyWorld), cell.request(fullWorld))
                for _ in 0..<warmUp {
                    _ = try await time(cell, emptyClient, requests.0, keep: false)
                    _ = try await time(cell, fullClient, requests.1, keep: false)
                }
                var times: ([Double], [Double]) = ([], [])
                var answers: (Answer?, Answer?) = (nil, nil)
                for index in 0..<timed {
                    let keep = index == 0
                    if index.isMultiple(of: 2) {
                        let a = try await time(cell, emptyClient, requests.0, keep: keep)
                        let b = try await time(cell, fullClient, requests.1, keep: keep)
                        times.0.append(a.micros); times.1.append(b.micros)
                        if keep { answers = (a.answer, b.answer) }
                    } else {
                        let b = try await time(cell, fullClient, requests.1, keep: keep)
                        let a = try await time(cell, emptyClient, requests.0, keep: keep)
                        times.0.append(a.micros); times.1.append(b.micros)
                    }
                }
                let result = CellResult(cell: cell.name, state: state, calls: timed,
                                        medians: (BenchData.median(times.0), BenchData.median(times.1)),
                                        answers: (try answers.0?.summary(cell), try answers.1?.summary(cell)))
                print(result.line)
                results.append(result)
            }
        }
        print("")
        print(LatencyTable.markdown(results, hidden: hidden, goal: goal))
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
    /// Each world's answer to the first timed call ("N items, M bytes").
    let answers: (String?, String?)

    var difference: Double { (medians.1 - medians.0) / medians.0 * 100 }
    var sameAnswer: Bool { answers.0 == answers.1 }

    var line: String {
        "\(cell) | \(state.label): \(LatencyTable.micros(medians.0)) µs vs \(LatencyTable.micros(medians.1)) µs ("
            + String(format: "%+.1f %%", difference) + "), answers \(answers.0 ?? "-") / \(answers.1 ?? "-")"
    }
}
