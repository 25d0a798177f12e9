import Glibc
import HealthIPC
import HealthWire

/// Where this process's connection to healthd comes from, decided from the environment.
enum BrokerEndpoint: Equatable {
    /// A socket health-sandbox connected and bound to the app's id before exec'ing it; its
    /// number is in `OPENHEALTH_SOCKET_FD`. Preferred: the broker already knows who we are.
    case inheritedDescriptor(Int32)
    /// The broker's app socket: `OPENHEALTH_APP_SOCKET`, else the default path. The broker
    /// identifies the app by its peer credentials.
    case socketPath(String)

    static func resolve(environment: [String: String]) throws(HKError) -> BrokerEndpoint {
        let descriptorVariable = LaunchEnvironment.socketDescriptorVariable
        if let text = environment[descriptorVariable] {
            guard let descriptor = Int32(text), descriptor >= 0 else {
                throw HKError(.errorHealthDataUnavailable,
                              "\(descriptorVariable)=\(text.prefix(32)) is not a descriptor number; health-sandbox sets it "
                              + "to the socket it hands the app. Unset it to connect to the app socket by path instead")
            }
            return .inheritedDescriptor(descriptor)
        }
        if let path = environment[LaunchEnvironment.appSocketPathVariable], !path.isEmpty {
            return .socketPath(path)
        }
        return .socketPath(DefaultPaths.appSocket(in: DefaultPaths.socketDirectory))
    }

    /// Whether a broken connection can be replaced by dialling again. An inherited socket
    /// cannot: health-sandbox's binding is the app's only identity, so its loss is final.
    var canReconnect: Bool {
        if case .socketPath = self { return true }
        return false
    }

    func connect() throws(HKError) -> RPCClient {
        switch self {
        case let .inheritedDescriptor(descriptor):
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
                throw HKError(.errorHealthDataUnavailable,
                              "\(LaunchEnvironment.socketDescriptorVariable)=\(descriptor) is not an open socket in this "
                              + "process; launch the app with health-sandbox, or unset the variable to connect by path")
            }
            // Children this app starts must not inherit the socket: two processes writing
            // frames to one stream would corrupt it, and the binding is this app's identity.
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            return RPCClient(fd: descriptor)
        case let .socketPath(path):
            do {
                return try RPCClient.connect(path: path)
            } catch where error.isImpostorSuspected {
                throw HKError(.errorHealthDataUnavailable, "will not connect to healthd's app socket \(path): \(error)")
            } catch {
                throw HKError(.errorHealthDataUnavailable,
                              "cannot connect to healthd's app socket \(path) (\(error)); start healthd, set "
                              + "\(LaunchEnvironment.appSocketPathVariable) to its app socket, or launch the app with health-sandbox")
            }
        }
    }
}
