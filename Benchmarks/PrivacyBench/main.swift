// privacy-bench: does a query for a type the app may not read take longer when the store holds
// more samples the app cannot see? (DESIGN.md §7.3: "no measurable delay depends on hidden data")
//
//   swift run -c release privacy-bench [hidden (default 1000000)] [queries (default 2000)]
//       the store path alone (StoreLatencyProbe)
//   swift run -c release privacy-bench broker [hidden (default 1000000)] [queries (default 2000)]
//       through real healthd processes and their app socket, for a denied type and for a
//       window-scoped read grant (BrokerLatencyProbe); needs healthd built beside privacy-bench
//       (`swift build -c release`)
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let throughBroker = arguments.first == "broker"
if throughBroker { arguments.removeFirst() }
let hidden = arguments.first.flatMap(Int.init) ?? 1_000_000
let queries = arguments.dropFirst().first.flatMap(Int.init) ?? 2000
if throughBroker {
    try await BrokerLatencyProbe.run(hidden: hidden, queries: queries)
} else {
    try await StoreLatencyProbe.run(hidden: hidden, queries: queries)
}
