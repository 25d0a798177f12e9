import Glibc
public import HealthIPC

/// healthd's two listening sockets: created by healthd itself, or inherited from a service
/// manager (systemd socket activation) — then checked to be exactly what healthd would have
/// created, since the admin socket's mode is part of the admin boundary (DESIGN.md §2).
public struct BrokerListeners: Sendable {
    public let app: Int32
    public let admin: Int32
    /// Inherited: the service manager keeps listening on them after healthd exits, so healthd
    /// never unlinks their files nor shuts them down — it only closes its copies.
    public let inherited: Bool

    /// The file mode each socket must have: the admin socket is the user's alone; the app
    /// socket admits anyone to the identity check (each connection is identified by its peer).
    public static let appSocketMode: UInt32 = 0o666
    public static let adminSocketMode: UInt32 = 0o600

    /// The names the service manager gives the sockets (`FileDescriptorName=`).
    public static let appSocketName = "app.sock"
    public static let adminSocketName = "admin.sock"

    /// Why inherited sockets are refused: each case says what to change in the unit.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Creates both sockets in the configuration's socket directory.
    static func create(_ configuration: BrokerConfiguration) throws(SystemCallError) -> BrokerListeners {
        let admin = try UnixSocket.listen(path: configuration.adminSocketPath, mode: adminSocketMode)
        do {
            let app = try UnixSocket.listen(path: configuration.appSocketPath, mode: appSocketMode)
            return BrokerListeners(app: app, admin: admin, inherited: false)
        } catch {
            close(admin)
            throw error
        }
    }

    /// Takes the sockets a service manager passed: exactly one named app.sock and one named
    /// admin.sock, each a listening Unix stream socket bound to the path the configuration
    /// names, with its mode. Anything else is refused — never served on a guess.
    public static func adopt(_ entries: [InheritedSockets.Entry], for configuration: BrokerConfiguration) throws(Refusal) -> BrokerListeners {
        for entry in entries where entry.name != appSocketName && entry.name != adminSocketName {
            throw Refusal(description: "an inherited socket is named '\(entry.name)'; healthd takes exactly two, named \(appSocketName) and \(adminSocketName) (FileDescriptorName=)")
        }
        func take(_ name: String, path: String, mode wanted: UInt32) throws(Refusal) -> Int32 {
            let matching = entries.filter { $0.name == name }
            guard matching.count == 1, let entry = matching.first else {
                throw Refusal(description: "healthd needs exactly one inherited socket named \(name), got \(matching.count)")
            }
            let listener: InheritedSockets.Listener
            do {
                listener = try InheritedSockets.inspect(entry.fd)
            } catch {
                throw Refusal(description: "the inherited socket \(name): \(error)")
            }
            guard listener.path == path else {
                throw Refusal(description: "the inherited socket \(name) is bound to '\(listener.path)', not to \(path); "
                                           + "make ListenStream= and healthd's --socket-dir agree")
            }
            guard let mode = listener.mode else {
                throw Refusal(description: "the inherited socket \(name): no socket file at \(path)")
            }
            guard mode == wanted else {
                throw Refusal(description: "the inherited socket \(path) has mode \(String(mode, radix: 8)), not \(String(wanted, radix: 8)) "
                                           + "(SocketMode=0\(String(wanted, radix: 8)) in the .socket unit)")
            }
            return entry.fd
        }
        return BrokerListeners(app: try take(appSocketName, path: configuration.appSocketPath, mode: appSocketMode),
                               admin: try take(adminSocketName, path: configuration.adminSocketPath, mode: adminSocketMode),
                               inherited: true)
    }
}
