import Foundation
import Glibc

// stack-bench: each figure of issue 17 through the full stack (the HealthKit SDK in separate
// app processes → Unix socket → a real release healthd → encrypted store), beside the
// machine's limit measured in the same run, with the ratio and the goal (Benchmarks/README.md).
// Needs the release healthd next to it. Internal modes: `app MODE …` (an app process),
// `pingpong N` (the raw socket round trip).
signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments
do {
    switch arguments.dropFirst().first {
    case "app":
        try await AppSide.run(Array(arguments.dropFirst(2)))
    case "validation-cost":
        try ValidationCost.run(rounds: arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200)
    case "pingpong":
        AppSide.report(try RawLimits.pingPong(roundTrips: arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000))
    default:
        try await StackBench(options: StackBench.Options(Array(arguments.dropFirst()))).run()
    }
} catch {
    FileHandle.standardError.write(Data("stack-bench failed: \(error)\n".utf8))
    exit(1)
}
