// privacy-bench: does a query for a type the app may not read take longer when the store holds
// more samples the app cannot see? (DESIGN.md §7.3: "no measurable delay depends on hidden data")
//
//   privacy-bench [hidden (default 1000000)] [queries (default 2000)]
//       the store path alone (StoreLatencyProbe)
//   privacy-bench broker [--hidden N (default 1000000)] [--calls N (default 300)]
//                        [--states denied,revoked,window,authorized (default all)] [--control]
//       through real healthd processes and their app socket, every query kind × read state
//       (BrokerLatencyProbe); --control gives the second store no hidden data either (the noise
//       floor of comparing two healthd processes); needs healthd built beside privacy-bench
//       (`swift build -c release --product healthd`). `broker N M` (positional) also works.
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let throughBroker = arguments.first == "broker"
if throughBroker { arguments.removeFirst() }

/// The value after `--name`, removed from `arguments` with it.
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
    return value
}

func count(_ text: String?, _ name: String) -> Int? {
    guard let text else { return nil }
    guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value >= 0 else {
        FileHandle.standardError.write(Data("privacy-bench: \(name) must be a whole number, not \(text)\n".utf8))
        exit(64)
    }
    return value
}

let hiddenOption = count(option("hidden", in: &arguments), "--hidden")
let callsOption = count(option("calls", in: &arguments), "--calls")
let statesOption = option("states", in: &arguments)
let control = arguments.contains("--control")
arguments.removeAll { $0 == "--control" }
let hidden = hiddenOption ?? count(arguments.first, "hidden") ?? 1_000_000
let queries = callsOption ?? count(arguments.dropFirst().first, "calls") ?? (throughBroker ? 300 : 2000)
if throughBroker {
    var states = ReadState.allCases
    if let statesOption {
        states = []
        for name in statesOption.split(separator: ",") {
            guard let state = ReadState(rawValue: String(name)) else {
                FileHandle.standardError.write(Data("privacy-bench: unknown state \(name); use \(ReadState.allCases.map(\.rawValue).joined(separator: ","))\n".utf8))
                exit(64)
            }
            states.append(state)
        }
    }
    try await BrokerLatencyProbe.run(hidden: hidden, calls: max(1, queries), states: states, control: control)
} else {
    try await StoreLatencyProbe.run(hidden: hidden, queries: queries)
}
