import Foundation
import Glibc
import TestSupport

// A test process in miniature, for HarnessChildLifetimeTests: starts a healthd the way every test
// does (`BrokerProcess`, through `ChildProcess`), prints its pid and folder and waits to be
// killed. Its killer then checks that the healthd did not outlive it, and removes the folder.
let broker: BrokerProcess
do {
    broker = try BrokerProcess()
} catch {
    FileHandle.standardError.write(Data("broker-holder: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardOutput.write(Data("healthd \(broker.pid) \(broker.root)\n".utf8))
while true { pause() }
