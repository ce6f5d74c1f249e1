// Losses: value and gradient with respect to the network output, averaged over the batch.
#pragma once

// L = 1/(2B) Σ_i Σ_k (f_ik − y_ik)²; dout = ∂L/∂f. dout may be null when only the value is needed.
double mse_loss(const double* f, const double* y, int batch, int outputs, double* dout);

// L = 1/B Σ_i −log softmax(f_i)[label_i]; dout = ∂L/∂f. `correct` (optional) counts argmax hits.
double cross_entropy_loss(const double* f, const int* labels, int batch, int classes, double* dout, int* correct);
