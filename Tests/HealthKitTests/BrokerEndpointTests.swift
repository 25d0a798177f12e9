import Foundation
import Glibc
import HealthIPC
@testable import HealthKit
import Testing

/// Where the SDK connects, from the environment, and the errors that say how to fix it.
@Suite(.timeLimit(.minutes(10))) struct BrokerEndpointTests {
    @Test func inheritedDescriptorWinsOverThePath() throws {
        let endpoint = try BrokerEndpoint.resolve(environment: ["OPENHEALTH_SOCKET_FD": "5", "OPENHEALTH_APP_SOCKET": "/x/app.sock"])
        #expect(endpoint == .inheritedDescriptor(5))
        #expect(try BrokerEndpoint.resolve(environment: ["OPENHEALTH_APP_SOCKET": "/x/app.sock"]) == .socketPath("/x/app.sock"))
        #expect(try BrokerEndpoint.resolve(environment: [:]) == .socketPath(DefaultPaths.appSocket(in: DefaultPaths.socketDirectory)))
    }

    @Test func malformedDescriptorVariableIsNamedInTheError() {
        #expect {
            _ = try BrokerEndpoint.resolve(environment: ["OPENHEALTH_SOCKET_FD": "three"])
        } throws: { error in
            let error = error as? HKError
            return error?.code == .errorHealthDataUnavailable && error?.message.contains("OPENHEALTH_SOCKET_FD=three") == true
        }
    }

    @Test func descriptorThatIsNotASocketIsRefused() throws {
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect(throws: HKError.self) { _ = try BrokerEndpoint.inheritedDescriptor(file).connect() }
    }

    @Test func missingSocketPathSaysWhichPathAndVariable() {
        let path = "/nonexistent-openhealth-\(getpid())/app.sock"
        #expect {
            _ = try BrokerEndpoint.socketPath(path).connect()
        } throws: { error in
            let error = error as? HKError
            return error?.code == .errorHealthDataUnavailable && error?.message.contains(path) == true
                && error?.message.contains("OPENHEALTH_APP_SOCKET") == true
        }
    }
}
