// Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations: simple, unconditionally stable, and
// plenty for the matrices the analyses need (a Hessian of a few dozen parameters, the Gram matrix of a vocabulary).
#pragma once
#include <vector>

// Diagonalizes the symmetric n × n matrix `a` (row-major) in place: on return its diagonal holds the eigenvalues.
// If `vectors` is given it receives the eigenvectors as columns (row-major n × n), in the diagonal's order.
void jacobi_diagonalize(std::vector<double>& a, int n, std::vector<double>* vectors);

// The eigenvalues of a symmetric n × n matrix, ascending.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n);
