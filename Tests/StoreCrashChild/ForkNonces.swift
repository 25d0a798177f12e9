import CPageCipher
import Foundation
import GRDB
import Glibc
import HealthStore

/// `store-crash-child fork-nonces <directory>` (PageNonceBatchTests): the next WAL page nonce
/// the writer connection draws in this process and in a child made by glibc's `_Fork()`, which
/// runs no pthread_atfork handler. Prints "parent HEX" and "child HEX", or "no _Fork" on a glibc
/// older than 2.34. Run in a process of its own so that no other thread of a test runner holds a
/// lock (malloc's, OpenSSL's) at the fork, which the child would then wait on for ever.
func forkNonces(directory: String) throws {
    let store = try openWithTable(directory)
    // A commit draws the WAL's first batch and uses a few of its nonces: the rest are left.
    _ = try saveRows(store, count: 1, size: 16...16)
    let connection = store.writer.writeWithoutTransaction { db in UnsafeMutableRawPointer(db.sqliteConnection) }
    // Looked up rather than declared: glibc declares it only for _GNU_SOURCE.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_Fork") else {
        announce("no _Fork")
        return
    }
    let forkWithoutHandlers = unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { fail("pipe: errno \(errno)") }
    // Made before the fork: the child allocates nothing.
    var nonce = [UInt8](repeating: 0, count: 12)
    var childNonce = [UInt8](repeating: 0, count: 12)
    let child = forkWithoutHandlers()
    if child == 0 {
        let taken = nonce.withUnsafeMutableBufferPointer { ohk_cipher_wal_take_nonce_of(connection, $0.baseAddress) }
        let written = nonce.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, 12) }
        _exit(taken == 1 && written == 12 ? 0 : 3)
    }
    guard child > 0 else { fail("_Fork: errno \(errno)") }
    let taken = nonce.withUnsafeMutableBufferPointer { ohk_cipher_wal_take_nonce_of(connection, $0.baseAddress) }
    let read = childNonce.withUnsafeMutableBytes { Glibc.read(pipeEnds[0], $0.baseAddress, 12) }
    var status: Int32 = 0
    waitpid(child, &status, 0)
    guard taken == 1, read == 12, status == 0 else { fail("nonces not drawn: parent \(taken), child read \(read), status \(status)") }
    let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
    announce("parent \(hex(nonce))")
    announce("child \(hex(childNonce))")
}
