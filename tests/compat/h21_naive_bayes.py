"""Issue 21 section 2: Gaussian naive Bayes written the way PyKokkos' ML
examples write it (upstream examples/NaiveBayes): scikit-learn's iris data,
classes by pk.unique, pk.in1d/pk.all checks, per-class pk.mean/pk.var over
axis 0, pk.findMax, pk.searchsorted, the joint log-likelihood through
upstream's pk.mul_num/add_num/divide_num/power_num and pk.sum over axis 1,
pk.transpose(pk.array(list of Views)), the prediction by
pk.index(classes, pk.argmax(jll, axis=1)). Checked against scikit-learn's
GaussianNB."""
import sys
from math import pi

import numpy as np
import pykokkos as pk
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB


class PkGaussianNB:
    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        self.classes_ = pk.unique(y)
        if not pk.all(pk.in1d(pk.unique(y), self.classes_)):
            raise ValueError("labels outside the classes")
        n_classes, n_features = len(self.classes_), X.shape[1]
        self.epsilon_ = self.var_smoothing * pk.findMax(pk.var(X, axis=0))
        self.theta_ = pk.zeros((n_classes, n_features))
        self.var_ = pk.zeros((n_classes, n_features))
        self.class_count_ = pk.zeros(n_classes, dtype=pk.double)
        yh = np.asarray(y)
        for y_i in pk.unique(y):
            i = int(pk.searchsorted(self.classes_, y_i))
            X_i = pk.array(np.asarray(X)[yh == y_i, :])
            self.theta_[i, :] = pk.mean(X_i, axis=0)
            self.var_[i, :] = pk.var(X_i, axis=0)
            self.class_count_[i] += X_i.shape[0]
        self.var_[:, :] += self.epsilon_
        self.class_prior_ = pk.divide_num(self.class_count_, pk.sum(self.class_count_))
        return self

    def joint_log_likelihood(self, X):
        jll = []
        for i in range(len(self.classes_)):
            jointi = pk.log(self.class_prior_[i])
            mu, var = pk.array(self.theta_[i, :]), pk.array(self.var_[i, :])
            n_ij = -0.5 * pk.sum(pk.log(pk.mul_num(var, 2.0 * pi)))
            d2 = pk.divide_num(pk.power_num(pk.add_num(X, pk.negative(mu)), 2), var)
            n_ij = pk.add_num(pk.negative(pk.mul_num(pk.sum(d2, 1), 0.5)), n_ij)
            jll.append(pk.add(n_ij, jointi))
        return pk.transpose(pk.array(jll))

    def predict(self, X):
        return pk.index(self.classes_, pk.argmax(self.joint_log_likelihood(X), axis=1))


def main():
    X, y = load_iris(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
    ours = PkGaussianNB().fit(pk.array(X_train), pk.array(y_train))
    pred = np.asarray(ours.predict(pk.array(X_test)))
    ref = GaussianNB().fit(X_train, y_train)
    if not np.allclose(np.asarray(ours.theta_), ref.theta_, rtol=1e-12) or \
            not np.allclose(np.asarray(ours.var_), ref.var_, rtol=1e-9):
        print("BAD class means/variances differ from scikit-learn's")
        sys.exit(1)
    want = ref.predict(X_test)
    if not np.array_equal(pred, want):
        print(f"BAD {int((pred != want).sum())} predictions differ from scikit-learn's")
        sys.exit(1)
    if (pred != y_test).sum() > 6:
        print(f"BAD {(pred != y_test).sum()} mislabeled of {len(y_test)}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
