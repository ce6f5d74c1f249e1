// Synthetic tasks: seeded, deterministic generators of train and test sets.
//
//   sin_regression: x uniform on the unit sphere in R^d, y = sin(frequency · x·v), v a fixed random unit vector
//                   (the width-scaling experiments' default toy: d = 8, frequency 2).
//   sectors:        2-D classification, x uniform in the unit disk (radius ≥ 0.1), class = angular sector
//                   (k sectors), twisted by `twist` radians per unit radius into spiral arms.
//   skipgram:       the word-embedding toy of experiment E9: a vocabulary of input_dim words in two clusters (the
//                   first and the second half). A corpus of train_size (word, context) pairs: the word uniform, its
//                   context uniform in the same cluster with probability kSkipgramSameCluster, else uniform in the
//                   other. One example per word: x = one-hot word, y = the frequencies of its contexts in the
//                   corpus (input_dim outputs, square loss): skip-gram as regression on the co-occurrence rows, so
//                   words of a cluster get similar targets. The test set: the same words, a fresh corpus of
//                   test_size pairs.
//   anchor:         anchor-function token sequences for a Transformer (engine/task/anchor_tasks.hpp).
//   fashion_mnist:  the first train_size / test_size images of the build's Fashion-MNIST subset (784 standardized
//                   pixels, 10 classes; engine/task/fashion_mnist.hpp). Not generated: `seed` does not apply.
//   table:          a data set the user brings, a CSV or NumPy file (engine/task/table_task.hpp); `seed` shuffles
//                   its rows into the train and test sets.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/task/task_config.hpp"

struct TaskData {
  Dataset train, test;
  bool classification = false;
  int outputs = 1;  // network outputs: 1 for regression, `classes` for classification
  AnchorData anchor;  // TaskKind::anchor: the token sequences (train and test above stay empty)
};

// The anchor task of a TaskConfig, with its sizes and seed.
AnchorTaskConfig anchor_task_config(const TaskConfig& config);

// fashion_mnist_dir: where a fashion_mnist task's files are (engine/task/fashion_mnist.hpp); other tasks need none.
// Throws std::runtime_error if a data file cannot be read (check_spec reports that before a run can start).
TaskData make_task(const TaskConfig& config, const std::string& fashion_mnist_dir = "");

bool task_is_classification(const TaskConfig& config);
// The rows make_task gives the train and the test set: train_size and test_size, but for skipgram one example per
// word (input_dim each).
int train_rows(const TaskConfig& config);
int test_rows(const TaskConfig& config);
int task_outputs(const TaskConfig& config);  // network outputs: 1, `classes`, 10 for Fashion-MNIST, input_dim for skipgram
// The cluster (0 or 1) of word `index` in the skipgram vocabulary of `words` words.
inline int skipgram_cluster(int index, int words) { return index < words / 2 ? 0 : 1; }

// Append a constant 1 to every input: folds a first-layer bias into W_1 (x → (x, 1)).
void append_constant_input(Dataset& d);
