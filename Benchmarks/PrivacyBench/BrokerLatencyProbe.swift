import Foundation
import HealthIPC
import HealthModel
import HealthWire

/// Through the whole broker: two real healthd processes, one whose store holds N hidden samples
/// of each probed type and one whose store holds none, both serving the same probing app (this
/// process, bound by its credentials). Each timed query is a QuerySamples call over the app
/// socket, from sending the request to the end of its stream, alternating between the brokers.
/// Two read scopes are timed: a denied type (own samples only) and a type with a 30-day window
/// grant (own samples plus recent ones; every hidden sample is older than the window).
enum BrokerLatencyProbe {
    static func run(hidden: Int, queries: Int) async throws {
        print("privacy-bench broker: \(hidden) hidden samples per type, \(queries) queries per broker and scope")
        let app = AppManifest(id: "org.bench.probe", displayName: "Probe", executable: CommandLine.executablePath, version: "1",
                              readUsageDescription: "benchmark", shareUsageDescription: "benchmark")
        let empty = try await BenchBroker(app: app, hidden: 0)
        defer { empty.stop() }
        let full = try await BenchBroker(app: app, hidden: hidden)
        defer { full.stop() }
        let emptyClient = try RPCClient.connect(path: empty.appSocket)
        let fullClient = try RPCClient.connect(path: full.appSocket)
        defer {
            emptyClient.close()
            fullClient.close()
        }
        for (label, type) in [("denied type", BenchData.steps), ("30-day window grant", BenchData.heartRate)] {
            let spec = BenchData.spec(type).wireBytes()
            for _ in 0..<50 {  // warm both brokers' page caches and connections
                _ = try await timeQuery(emptyClient, spec)
                _ = try await timeQuery(fullClient, spec)
            }
            var emptyTimes: [Double] = [], fullTimes: [Double] = []
            for _ in 0..<queries {
                let (a, rowsA) = try await timeQuery(emptyClient, spec)
                let (b, rowsB) = try await timeQuery(fullClient, spec)
                guard rowsA == BenchData.ownCount, rowsB == BenchData.ownCount else {
                    throw BenchFailed("\(label): the probing app saw \(rowsA) and \(rowsB) samples, not its own \(BenchData.ownCount)")
                }
                emptyTimes.append(a)
                fullTimes.append(b)
            }
            let m0 = BenchData.median(emptyTimes), m1 = BenchData.median(fullTimes)
            print("\(label):")
            print(String(format: "  median latency, 0 hidden samples:        %8.1f µs", m0))
            print(String(format: "  median latency, %7d hidden samples:  %8.1f µs", hidden, m1))
            print(String(format: "  difference: %+.1f%% (target: within ±10%%)", (m1 - m0) / m0 * 100))
        }
    }

    /// One QuerySamples call to the end of its stream: microseconds and samples received.
    static func timeQuery(_ client: RPCClient, _ spec: [UInt8]) async throws -> (Double, Int) {
        var rows = 0
        let began = DispatchTime.now().uptimeNanoseconds
        for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue, spec) {
            rows += try SampleList(wire: batch).samples.count
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000, rows)
    }
}
