#ifndef LODESTONE_GAZETTEER_H
#define LODESTONE_GAZETTEER_H

/// The built-in gazetteer (gazetteer.bin, made by Tools/gazetteer/make_gazetteer.py): its bytes,
/// read-only, for the life of the process.
const unsigned char *lodestone_gazetteer_bytes(void);
/// The size of the gazetteer in bytes.
unsigned long lodestone_gazetteer_size(void);

#endif
