// Child process for the crash tests in HealthStoreTests: it works on a store until
// the test kills it with SIGKILL, announcing on stdout each piece of work only once
// the store has acknowledged it.
//
//   store-crash-child save <directory>    insert rows; print each row id after its commit returns
//   store-crash-child rotate <directory>  rotate the data key in a loop; print "rotated" after each
import Foundation
import GRDB
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

func saveForever(directory: String) throws {
    let store = try EncryptedDatabase.open(directory: directory)
    try store.writer.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS acknowledged (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
    }
    while true {
        // Varied sizes: some rows share pages, some overflow onto several.
        let rows = Int.random(in: 1...4)
        let ids = try store.writer.write { db in
            try (0..<rows).map { _ in
                let payload = Data((0..<Int.random(in: 16...6000)).map { _ in UInt8.random(in: 0...255) })
                try db.execute(sql: "INSERT INTO acknowledged (payload) VALUES (?)", arguments: [payload])
                return db.lastInsertedRowID
            }
        }
        for id in ids { announce(String(id)) }
    }
}

func rotateForever(directory: String) throws {
    while true {
        try StoreKeyRotation.rotate(directory: directory, passcode: nil)
        announce("rotated")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: store-crash-child save|rotate <directory>") }
do {
    switch arguments[1] {
    case "save": try saveForever(directory: arguments[2])
    case "rotate": try rotateForever(directory: arguments[2])
    default: fail("unknown mode \(arguments[1])")
    }
} catch {
    fail("store-crash-child: \(error)")
}
