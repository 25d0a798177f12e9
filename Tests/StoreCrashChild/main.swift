// Child process for the crash tests in HealthStoreTests: it works on a store until
// the test kills it with SIGKILL, announcing on stdout each piece of work only once
// the store has acknowledged it.
//
//   store-crash-child save <directory>    insert rows; print each row id after its commit returns
//   store-crash-child rotate <directory>  rotate the data key in a loop; print "rotated" after each
//   store-crash-child step <directory>    one piece of work per stdin line, then "done" (PowerLossTests):
//                                         "save" inserts rows and prints their ids, "bulk" one large
//                                         row (fills the WAL towards a checkpoint), "rotate" closes
//                                         the store and rotates its key (the next save reopens it),
//                                         "group" 1–8 concurrent saves through the group-commit queue
//                                         (GroupSaves) and prints their UUIDs
//   store-crash-child attach <directory>  add attachments in a loop (AttachLoop), announcing each step
//   store-crash-child passcode <directory> set, change and remove a passcode in a loop (each one a key
//                                         rotation); print "set", "changed", "removed" after each
//   store-crash-child journal-scan <directory:generation:mebibytes>
//   store-crash-child journal-read <directory:generation:mebibytes>
//                                         with its data segment limited to that many MiB, open pending
//                                         journal GENERATION for appending as a locked start does (scan),
//                                         or read every record with its body as the merge does (read);
//                                         print the records seen (PendingJournalMemoryTests)
//   store-crash-child fork-nonces <directory>  the next WAL page nonce drawn here and in a child
//                                         made by _Fork() (ForkNonces, PageNonceBatchTests)
import Foundation
import GRDB
import HealthModel
import HealthStore

/// One write(2) per line, so a line is either wholly in the pipe or absent.
func announce(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// Commits one transaction of 1–4 rows of varied sizes (some share pages, some overflow onto
/// several) and returns their ids once the commit has returned.
func saveRows(_ store: EncryptedDatabase, count: Int, size: ClosedRange<Int>) throws -> [Int64] {
    try store.writer.write { db in
        try (0..<count).map { _ in
            let payload = Data((0..<Int.random(in: size)).map { _ in UInt8.random(in: 0...255) })
            try db.execute(sql: "INSERT INTO acknowledged (payload) VALUES (?)", arguments: [payload])
            return db.lastInsertedRowID
        }
    }
}

func openWithTable(_ directory: String, checkpointing: WALCheckpointing = .standard) throws -> EncryptedDatabase {
    let store = try EncryptedDatabase.open(directory: directory, checkpointing: checkpointing)
    try store.writer.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS acknowledged (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
    }
    return store
}

/// Idle between commands, so whoever reads the files between an acknowledgement and the next
/// command sees them as that acknowledgement left them. After a rotation the store stays closed
/// until the next save, so what a rotation alone made durable is seen without a reopen's writes.
func stepOnCommand(directory: String) throws {
    var store: EncryptedDatabase? = try openWithTable(directory)
    var database: HealthDatabase?
    announce("done")
    while let command = readLine() {
        switch command {
        case "save", "bulk":
            let open = try store ?? openWithTable(directory)
            store = open
            let (count, size) = command == "save" ? (Int.random(in: 1...4), 16...6000) : (1, 300_000...400_000)
            for id in try saveRows(open, count: count, size: size) { announce(String(id)) }
        case "group":
            let open = try store ?? openWithTable(directory)
            store = open
            let grouped = try database ?? HealthDatabase(writer: open.writer)
            database = grouped
            try GroupSaves.run(grouped, saves: Int.random(in: 1...8))
        case "rotate":
            database = nil
            try store?.close()
            store = nil
            try StoreKeyRotation.rotate(directory: directory, passcode: nil)
            announce("rotated")
        default:
            fail("unknown command \(command)")
        }
        announce("done")
    }
    try store?.close()
}

/// Background checkpoints every 64 frames (a few dozen commits) rather than 1,000, so that many
/// kills land while one is copying the WAL into the database (CrashRecoveryTests).
func saveForever(directory: String) throws {
    let store = try openWithTable(directory, checkpointing: WALCheckpointing(backgroundFrames: 64, inlineFrames: 4_096))
    while true {
        for id in try saveRows(store, count: Int.random(in: 1...4), size: 16...6000) { announce(String(id)) }
    }
}

func rotateForever(directory: String) throws {
    while true {
        try StoreKeyRotation.rotate(directory: directory, passcode: nil)
        announce("rotated")
    }
}

/// Walks the passcode states: none → "first" → "second" → none …, starting from wherever a
/// killed run left the store (one scrypt to tell "first" from "second").
func cyclePasscodeForever(directory: String) throws {
    let first = "first passcode", second = "second passcode"
    while true {
        if try !StorePasscode.isSet(directory: directory) {
            try StorePasscode.set(directory: directory, passcode: Passcode(first))
            announce("set")
        } else if (try? StorePasscode.verify(directory: directory, passcode: Passcode(first))) != nil {
            try StorePasscode.change(directory: directory, from: Passcode(first), to: Passcode(second))
            announce("changed")
        } else {
            try StorePasscode.remove(directory: directory, passcode: Passcode(second))
            announce("removed")
        }
    }
}

/// `directory:generation:mebibytes`: limits the data segment (heap and private mappings), then
/// scans or reads the journal; an allocation past the limit kills the child.
func readJournal(_ argument: String, bodies: Bool) throws {
    let parts = argument.split(separator: ":").map(String.init)
    guard parts.count == 3, let generation = Int64(parts[1]), let mebibytes = Int(parts[2]) else {
        fail("journal modes take directory:generation:mebibytes")
    }
    var limit = rlimit(rlim_cur: rlim_t(mebibytes) << 20, rlim_max: rlim_t(mebibytes) << 20)
    guard setrlimit(Int32(RLIMIT_DATA.rawValue), &limit) == 0 else { fail("setrlimit failed") }
    if bodies {
        let path = parts[0] + "/pending-\(generation).journal"
        guard let reader = try PendingJournalReader(path: path, generation: generation) else { fail("no journal at \(path)") }
        var records = 0
        while let item = try reader.next() {
            if case .entry = item { records += 1 }
        }
        announce("records \(records)")
    } else {
        let journal = try PendingJournal.openForAppending(directory: parts[0], generation: generation,
                                                          publicKey: [UInt8](repeating: 9, count: 32))
        announce("records \(journal.count)")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: store-crash-child save|rotate|step|attach|passcode|journal-scan|journal-read|fork-nonces <directory>") }
do {
    switch arguments[1] {
    case "save": try saveForever(directory: arguments[2])
    case "rotate": try rotateForever(directory: arguments[2])
    case "step": try stepOnCommand(directory: arguments[2])
    case "attach": try attachForever(directory: arguments[2])
    case "passcode": try cyclePasscodeForever(directory: arguments[2])
    case "journal-scan": try readJournal(arguments[2], bodies: false)
    case "journal-read": try readJournal(arguments[2], bodies: true)
    case "fork-nonces": try forkNonces(directory: arguments[2])
    default: fail("unknown mode \(arguments[1])")
    }
} catch {
    fail("store-crash-child: \(error)")
}
