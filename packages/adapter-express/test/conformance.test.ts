import express from 'express';
import express4 from 'express4';
import { describeConformance } from '../../core/test/http/suite';
import { serveWith } from './serve';

describeConformance('Express 5', serveWith(express));
describeConformance('Express 4', serveWith(express4));
