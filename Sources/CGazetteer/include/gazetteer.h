#ifndef LODESTONE_GAZETTEER_H
#define LODESTONE_GAZETTEER_H

/// The built-in gazetteer (gazetteer.bin, made by Tools/gazetteer/make_gazetteer.py): its bytes,
/// read-only, for the life of the process.
const unsigned char *lodestone_gazetteer_bytes(void);
/// The size of the gazetteer in bytes.
unsigned long lodestone_gazetteer_size(void);
/// The bounds of the gazetteer's k-d tree cells (gazetteer_bounds.bin, made from gazetteer.bin by
/// Tools/gazetteer/make_bounds.py): its bytes, read-only, for the life of the process.
const unsigned char *lodestone_gazetteer_bounds_bytes(void);
/// The size of the cell bounds in bytes.
unsigned long lodestone_gazetteer_bounds_size(void);

#endif
