// File-control opcode private to the cipher VFS.
#ifndef CPAGECIPHER_FILE_CONTROL_H
#define CPAGECIPHER_FILE_CONTROL_H

/// Answers the file's kind (see file_kind); any other VFS answers SQLITE_NOTFOUND,
/// which is how a connection proves its database really goes through the cipher.
#define OHK_FCNTL_CIPHER_FILE_KIND 0x4F484B01

#endif
