// broker-confine-probe: healthd's own file confinement (BrokerFileConfinement, the policy and the
// C call healthd makes, with its peer inspector started first as healthd does), applied to this
// process, then each thing a hijacked healthd might try, one line each: `name ok` or
// `name errno N`. With --no-confine the same attempts run unconfined: the control that shows
// each would succeed without the ruleset. With --broker-seccomp, healthd's seccomp filter
// (`ohk_confine_broker`, what healthd adds once it serves) goes on before the socket attempts at
// the end. Used by SandboxTests/BrokerFileConfinementTests and BrokerSocketConfinementTests.
import CSandbox
import Foundation
import Glibc
import HealthIPC
import HealthSandboxKit

struct Options {
    var store = ""
    var socketDirectory = ""
    var outsideDirectory = ""
    var otherStoreFile = ""
    var confine = true
    var threadFirst = false
    var brokerSeccomp = false
}

func parse() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--store": options.store = arguments.next() ?? ""
        case "--socket-dir": options.socketDirectory = arguments.next() ?? ""
        case "--outside-dir": options.outsideDirectory = arguments.next() ?? ""
        case "--other-store-file": options.otherStoreFile = arguments.next() ?? ""
        case "--no-confine": options.confine = false
        case "--thread-first": options.threadFirst = true
        case "--broker-seccomp": options.brokerSeccomp = true
        default: print("unknown argument \(argument)"); exit(2)
        }
    }
    return options
}

func report(_ name: String, _ result: Int32) {
    print(result >= 0 ? "\(name) ok" : "\(name) errno \(errno)")
}

func openClose(_ path: String, _ flags: Int32) -> Int32 {
    let fd = open(path, flags | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
    return fd
}

/// A child outside the domain (started before it), to signal and to look at. It connects to
/// `address` so that the probe can identify it the way healthd identifies a peer, and exits when
/// the probe does (end of file on a pipe: the confined probe may not signal it), holding none of
/// the probe's output open.
func startBystander(connectingTo address: sockaddr_un, length: socklen_t) -> pid_t {
    var lifeline: [Int32] = [0, 0]
    guard pipe(&lifeline) == 0 else { return -1 }
    let child = fork()
    if child == 0 {
        close(lifeline[1])
        for fd: Int32 in 0...2 { close(fd) }
        var address = address
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        var byte: UInt8 = 0
        while read(lifeline[0], &byte, 1) != 0 && errno == EINTR {}
        _exit(0)
    }
    close(lifeline[0])
    return child
}

/// An abstract socket bound before the domain exists: outside it.
func abstractListener(name: String) -> (Int32, sockaddr_un, socklen_t) {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = [UInt8(0)] + Array(name.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    listen(fd, 1)
    return (fd, address, length)
}

// A crash ends the probe at once: the Swift runtime's backtracer, started for a crash, inherits
// the probe's descriptors — the bystander's lifeline among them — and once waited on a socket the
// bystander held while the bystander waited for that lifeline: the test hung (session 15, on the
// --thread-first run; the crash itself is not yet understood). Without it the test sees the signal.
for crash in [SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGABRT] { signal(crash, SIG_DFL) }

/// A pathname socket listening in `folder` (the session bus, `systemd --user`'s private socket and
/// ssh-agent are such sockets in the user's folders): what a hijacked healthd would connect to.
func pathnameListener(in folder: String, type: Int32) -> (Int32, sockaddr_un, socklen_t) {
    let fd = socket(AF_UNIX, type, 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array((folder + "/bus-\(type)").utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    if type == Int32(SOCK_STREAM.rawValue) { listen(fd, 1) }
    return (fd, address, length)
}

let options = parse()
let store = options.store, outside = options.outsideDirectory
// Made before any confinement, as the user's own services are.
var (_, busAddress, busLength) = pathnameListener(in: outside, type: Int32(SOCK_STREAM.rawValue))
var (_, datagramAddress, datagramLength) = pathnameListener(in: outside, type: Int32(SOCK_DGRAM.rawValue))
// Sockets healthd made before it confined itself (its notify socket is one): an existing
// descriptor must not become a way around the refusal to create one.
let earlyStream = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
let earlyDatagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
// Prepared before confinement, as a hijacked healthd would find them.
_ = openClose(store + "/in-store", O_CREAT | O_WRONLY)
_ = openClose(outside + "/to-move-in", O_CREAT | O_WRONLY)
var (listener, abstractAddress, abstractLength) = abstractListener(name: "ohk-broker-probe-\(getpid())")
let bystander = startBystander(connectingTo: abstractAddress, length: abstractLength)

let inspector: PeerInspector
do {
    inspector = try PeerInspector()
} catch {
    print("inspector failed: \(error)")
    exit(1)
}
PeerProcessReading.install { pid, pidfd in inspector.facts(pid: pid, pidfd: pidfd) }
// A thread started before the walls, which they would not confine.
if options.threadFirst {
    // A thread of the Swift runtime's own (Foundation's `Thread`): a raw pthread running a Swift
    // closure crashed in libdispatch (SIGILL) when the process ended beside it — always at a
    // normal exit, in a third of runs at the refusal's `_exit` (session 15).
    let started = DispatchSemaphore(value: 0)
    Thread {
        started.signal()
        while true { sleep(60) }
    }.start()
    started.wait()
}
if options.confine {
    do {
        let outcome = try BrokerFileConfinement(storeDirectory: store, socketDirectory: options.socketDirectory,
                                                environment: [:]).apply()
        print("landlock-abi \(outcome.landlockABI)")
    } catch {
        print("confinement failed: \(error)")
        // _exit: not the process's exit handlers while the --thread-first thread still runs.
        fflush(nil)
        _exit(3)
    }
}

// What healthd does: its store and sockets' folder.
report("store-create", openClose(store + "/created", O_CREAT | O_RDWR))
report("store-read", openClose(store + "/in-store", O_RDONLY))
report("store-truncate", truncate(store + "/created", 0))
report("store-rename", rename(store + "/created", store + "/renamed"))
report("store-remove", unlink(store + "/renamed"))
report("socket-dir-bind", {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array((options.socketDirectory + "/probe.sock").utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}())
report("own-proc", openClose("/proc/self/status", O_RDONLY))
report("zoneinfo", openClose("/etc/localtime", O_RDONLY))

// What it must not.
report("home-read", openClose(outside + "/id_ed25519", O_RDONLY))
report("home-write", openClose(outside + "/id_ed25519", O_WRONLY))
report("home-create", openClose(outside + "/planted", O_CREAT | O_WRONLY))
report("home-truncate", truncate(outside + "/id_ed25519", 0))
report("home-mkdir", mkdir(outside + "/folder", 0o700))
report("etc-read", openClose("/etc/passwd", O_RDONLY))
report("other-store-read", openClose(options.otherStoreFile, O_RDONLY))
report("rename-into-store", rename(outside + "/to-move-in", store + "/moved-in"))
report("link-out-of-store", link(store + "/in-store", outside + "/linked-out"))
report("rename-out-of-store", rename(store + "/in-store", outside + "/moved-out"))
report("exec", {
    var child = pid_t()
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
    let result = posix_spawn(&child, "/bin/true", nil, nil, arguments, environ)
    if result == 0 {
        var status: Int32 = 0
        waitpid(child, &status, 0)
        return 0
    }
    errno = result
    return -1
}())
report("peer-proc-status", openClose("/proc/\(bystander)/status", O_RDONLY))
// What the kernel guards with the ptrace check in another process's /proc entry: its environment,
// auxiliary vector and memory maps. A process with root's capabilities opened these from inside
// a Landlock domain; with none (healthd drops them all), they are refused as for any user.
for entry in ["environ", "auxv", "maps"] {
    report("peer-proc-\(entry)", openClose("/proc/\(bystander)/\(entry)", O_RDONLY))
}
// The capabilities left: "CapEff:" of /proc/self/status, a hex mask.
let ownStatus = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
let effective = ownStatus.split(separator: "\n").first { $0.hasPrefix("CapEff:") }?.split(separator: "\t").last
print("cap-eff \(effective.map(String.init) ?? "unknown")")
report("peer-exe-direct", {
    var buffer = [CChar](repeating: 0, count: 4096)
    return Int32(readlink("/proc/\(bystander)/exe", &buffer, buffer.count))
}())
report("signal-outside", kill(bystander, 0))
report("abstract-connect-outside", {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    return withUnsafePointer(to: &abstractAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, abstractLength) }
    }
}())
// The inspector answers for the peer what healthd can no longer read itself: the bystander's
// connection identified as healthd identifies one (PeerCredentials.of: SO_PEERPIDFD, the
// installed reader, the liveness poll).
let accepted = accept(listener, nil, nil)
let peer = try? PeerCredentials.of(accepted)
let inspectedExecutable = peer.flatMap { peer in peer.executablePath.flatMap { peer.runs($0) ? $0 : nil } }
print("peer-exe-inspected \(inspectedExecutable ?? "unknown")")
print("peer-confined-inspected \(peer.map { String($0.confined) } ?? "unknown")")
close(accepted)
close(listener)

// Pathname sockets: Landlock has no rule for connecting to one, so only healthd's seccomp filter
// keeps a hijacked healthd from the user's session bus and the like.
if options.brokerSeccomp {
    var message = [CChar](repeating: 0, count: 256)
    guard ohk_confine_broker(&message, message.count) == 0 else {
        print("broker seccomp failed: \(String(cString: message))")
        fflush(nil)
        _exit(4)
    }
    print("broker-seccomp on")
}
func connectTo(_ fd: Int32, _ address: inout sockaddr_un, _ length: socklen_t) -> Int32 {
    withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
}
report("unix-socket-create", {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    if fd >= 0 { close(fd) }
    return fd
}())
report("pathname-connect-early-socket", connectTo(earlyStream, &busAddress, busLength))
report("datagram-sendto-address", {
    let byte: [UInt8] = [0x41]
    return Int32(withUnsafePointer(to: &datagramAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(earlyDatagram, byte, 1, 0, $0, datagramLength) }
    })
}())
// What healthd still does: a pair for a launch binding.
report("socketpair", {
    var pair: [Int32] = [0, 0]
    let result = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
    if result == 0 { close(pair[0]); close(pair[1]) }
    return result
}())
