// The Python of engine/export/torch/, compiled into the engine (engine/export/embed_pieces.cmake writes the table
// at build time), so the command line and the page write the same train.py.
#pragma once

struct TorchPiece {
  const char* name;  // "header.py", "tasks.py", "models.py", "metrics.py", "train.py": train.py's order
  const char* text;
};
extern const TorchPiece kTorchPieces[];
extern const int kTorchPieceCount;
